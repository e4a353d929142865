import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '#sandbox/index.ts';
import {
  createOnService,
  type DeskHarness,
  everyFile,
  PERSON,
  removeDir,
  startDesk,
} from '#test/support/desk/desk-harness.ts';

/** The queue and the customer view, end to end through the desk, on the built-in sandbox in each profile. */
describe.each(['interface', 'real'] as const)(
  'desk: customers and queue on the sandbox’s %s profile',
  (profile) => {
    let h: DeskHarness;
    const ids: Record<string, string> = {};
    const start = (dataDir?: string) =>
      startDesk(dataDir, (options) => startSandbox({ ...options, profile, reviewDelayMs: 60_000 }));

    beforeAll(async () => {
      h = await start();
      for (const name of ['retry', 'document', 'suspended', 'Verity']) {
        ids[name] = await createOnService(h, name, `${name.toLowerCase()}@example.com`);
      }
    });
    afterAll(async () => {
      await h.close();
      removeDir(h.dataDir);
    });

    it('adds customers by id and by URL and shows them in the right sections', async () => {
      await h.call('customers.add', { ref: ids.retry! });
      await h.call('customers.add', { ref: ids.document! });
      await h.call('customers.add', {
        ref: `${h.desk.connection().status().baseUrl}/customers/${ids.suspended}`,
      });
      const verified = await h.call('customers.add', { ref: ids.Verity! });
      expect(verified).toMatchObject({
        firstName: 'Verity',
        lastName: 'Okafor',
        status: 'verified',
        section: 'verified',
      });

      const all = await h.call('queue.window', { section: 'all', search: '', offset: 0, limit: 50 });
      expect(all.total).toBe(4);
      expect(all.counts).toMatchObject({
        retry: 1,
        document: 1,
        suspended: 1,
        verified: 1,
        review: 0,
        other: 0,
      });
      const sections = Object.fromEntries(all.rows.map((row) => [row.name.split(' ')[0], row.section]));
      expect(sections).toEqual({
        retry: 'retry',
        document: 'document',
        suspended: 'suspended',
        Verity: 'verified',
      });
    });

    it('narrows the queue by a search on name or email', async () => {
      const byEmail = await h.call('queue.window', {
        section: 'all',
        search: 'suspended@',
        offset: 0,
        limit: 50,
      });
      expect(byEmail.rows.map((row) => row.id)).toEqual([ids.suspended]);
      const byName = await h.call('queue.window', { section: 'all', search: 'verity', offset: 0, limit: 50 });
      expect(byName.rows.map((row) => row.id)).toEqual([ids.Verity]);
    });

    // On the real profile an unknown customer is a 403 `notFound`: still "no such customer", never a token failure.
    it('refuses a reference that is not a customer of this service', async () => {
      await expect(
        h.call('customers.add', {
          ref: 'https://evil.example/customers/00000000-0000-4000-8000-000000000000',
        }),
      ).rejects.toMatchObject({ code: 'BadReference' });
      // Ids are opaque: any text is one, asked of the service; one no customer could have is refused in words.
      await expect(h.call('customers.add', { ref: 'not an id' })).rejects.toMatchObject({ code: 'NotFound' });
      await expect(h.call('customers.add', { ref: 'a\u0001b' })).rejects.toMatchObject({
        code: 'BadReference',
        message: 'Vetted cannot use the customer id "a\\u0001b": it holds control characters.',
      });
      await expect(
        h.call('customers.add', { ref: '00000000-0000-4000-8000-000000000000' }),
      ).rejects.toMatchObject({ code: 'NotFound' });
    });

    it('moves a customer through review to verified and pushes each change', async () => {
      const id = ids.document!;
      const png = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64)]);
      await h.desk.connection().client().documents.upload(id, {
        documentType: 'passport',
        fileName: 'passport.png',
        contentType: 'image/png',
        bytes: png,
      });
      const inReview = await h.call('customers.refresh', { id });
      expect(inReview.section).toBe('review');

      h.events.length = 0;
      await h.desk.connection().sandbox!.advanceClock(120);
      const progress = await h.call('customers.reconcile');
      expect(progress).toMatchObject({ job: 'reconcile', finished: true, message: null });
      const detail = await h.call('customers.get', { id });
      expect(detail).toMatchObject({ status: 'verified', section: 'verified' });
      expect(detail.history.map((change) => change.status)).toEqual(['document', 'verified']);
      expect(h.events).toContainEqual({
        event: 'customer.updated',
        payload: expect.objectContaining({ id, section: 'verified' }),
      });
      expect(h.events.some((e) => e.event === 'job.progress')).toBe(true);
    });

    it('offers the actions the status allows, with a reason where not', async () => {
      const retry = await h.call('customers.get', { id: ids.retry! });
      expect(retry.actions.retry).toEqual({ allowed: true, reason: null });
      expect(retry.actions.upload.allowed).toBe(false);
      const suspended = await h.call('customers.get', { id: ids.suspended! });
      expect(suspended.actions.retry).toMatchObject({
        allowed: false,
        reason: expect.stringMatching(/suspended/),
      });
      expect(suspended.links.map((link) => link.rel)).toContain('funding-sources');
    });

    it('imports every customer the service lists', async () => {
      await createOnService(h, 'Imported', 'imported@example.com');
      expect(await h.call('customers.importAvailability')).toEqual({ available: true, reason: null });
      const progress = await h.call('customers.import');
      expect(progress).toMatchObject({ job: 'import', finished: true, done: 5, total: 5 });
      // The one made behind Vetted's back is new, unless a webhook told of it first; the rest were added.
      const [added, known] = (progress.message ?? '')
        .match(/^Imported from the service: (\d+) new, (\d+) already here\.$/)!
        .slice(1)
        .map(Number);
      expect(added! + known!).toBe(5);
      expect(known).toBeGreaterThanOrEqual(4);
      const all = await h.call('queue.window', { section: 'all', search: 'imported', offset: 0, limit: 50 });
      expect(all.total).toBe(1);
    });

    it('keeps no personal data in the clear anywhere in its data directory, the sandbox included', async () => {
      await h.desk.close();
      const files = everyFile(h.dataDir);
      expect(files.some((bytes) => bytes.includes('verity@example.com'))).toBe(true);
      for (const value of [PERSON.address1, PERSON.dateOfBirth, PERSON.city]) {
        for (const bytes of files) expect(bytes.includes(value)).toBe(false);
      }
      h = await start(h.dataDir);
      expect((await h.call('queue.window', { section: 'all', search: '', offset: 0, limit: 50 })).total).toBe(
        5,
      );
    });

    it('refuses to reveal without a reason, and says when it holds no personal data', async () => {
      await expect(h.call('customers.reveal', { id: ids.retry!, reason: 'x' })).rejects.toMatchObject({
        code: 'BadInput',
      });
      const revealed = h.call('customers.reveal', { id: ids.retry!, reason: 'checking the address' });
      if (profile === 'interface') {
        await expect(revealed).rejects.toMatchObject({ code: 'NoPersonalData' });
      } else {
        // The real service sends the address back on GET: kept encrypted, shown on a reveal.
        const { reported } = await revealed;
        expect(Object.fromEntries(reported.map(({ field, value }) => [field, value]))).toMatchObject({
          address1: PERSON.address1,
          city: PERSON.city,
        });
      }
    });
  },
);
