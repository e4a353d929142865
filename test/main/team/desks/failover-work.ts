// Two desks working while the team store fails over (store-failover.test.ts): each loop submits drafts,
// writes notes and takes cases; Alice (a lead) approves the retries Bob asks for under four eyes. Every call
// that answered is kept as acknowledged; one that failed (the store away) is counted, and tried again later
// as a reviewer would. Loops run until told to stop; each iteration is a few calls, none waits on a timer.

import type { DeskHarness } from '#test/support/desk/desk-harness.ts';
import { validForm } from '#test/support/desk/drafts.ts';

export interface Acknowledged {
  /** Drafts whose submit answered queued: the e-mail the service will know them by. */
  drafts: string[];
  /** Drafts whose submit failed (never acknowledged): at most one customer each on the service. */
  unsure: string[];
  notes: { customerId: string; text: string }[];
  claims: string[];
  /** Approvals this desk approved (the retry sent to the service). */
  approved: { id: string; customerId: string }[];
  /** Retries this desk asked for under four eyes: approval id by customer. */
  asked: Map<string, string>;
}

export interface WorkLoop {
  readonly done: Acknowledged;
  /** Successful iterations, and failed calls, so far. */
  readonly rounds: number;
  readonly failures: number;
  /** Ends the loop after its current iteration. */
  stop(): Promise<void>;
}

const SSN = '536-21-4470';

export function startWork(
  desk: DeskHarness,
  name: string,
  { retryCases = [], approves = false }: { retryCases?: string[]; approves?: boolean },
): WorkLoop {
  const done: Acknowledged = {
    drafts: [],
    unsure: [],
    notes: [],
    claims: [],
    approved: [],
    asked: new Map(),
  };
  const state = { rounds: 0, failures: 0, stopped: false };
  const attempt = async (work: () => Promise<void>): Promise<boolean> => {
    try {
      await work();
      return true;
    } catch {
      state.failures++;
      return false;
    }
  };
  const iteration = async (n: number): Promise<boolean> => {
    let ok = true;
    const form = validForm({ firstName: name, lastName: `Failover${n}` });
    const email = form.email ?? '';
    ok &&= await attempt(async () => {
      const { id } = await desk.call('drafts.create');
      await desk.call('drafts.save', { id, form });
      const { queued } = await desk.call('drafts.submit', { ids: [id] });
      (queued.includes(id) ? done.drafts : done.unsure).push(email);
    });
    if (!ok && !done.drafts.includes(email) && !done.unsure.includes(email)) done.unsure.push(email);
    const rows = await desk
      .call('queue.window', { section: 'all', search: '', offset: 0, limit: 200 })
      .then((window) => window.rows)
      .catch(() => []);
    // A note every round, on any case: it needs the store (a submitted draft may wait on the desk instead).
    const noted = rows.at(n % Math.max(1, rows.length));
    if (noted) {
      const text = `${name}'s note ${n}`;
      ok &&= await attempt(async () => {
        await desk.call('notes.add', { customerId: noted.id, text });
        done.notes.push({ customerId: noted.id, text });
      });
    }
    const mine = rows.find((row) => row.name.startsWith(`${name} `) && !done.claims.includes(row.id));
    if (mine) {
      ok &&= await attempt(async () => {
        const claim = await desk.call('claims.take', { customerId: mine.id });
        if (claim.claim?.mine) done.claims.push(mine.id);
      });
    }
    const retry = retryCases.find((id) => !done.asked.has(id));
    if (retry) {
      ok &&= await attempt(async () => {
        const form = { ...validForm({ firstName: 'verified', lastName: 'Failover' }), tin: SSN };
        const asked = await desk.call('retry.submit', { customerId: retry, form, confirmed: true });
        if ('waiting' in asked) done.asked.set(retry, asked.waiting.id);
      });
    }
    if (approves) {
      ok &&= await attempt(async () => {
        const pending = (await desk.call('approvals.list')).filter(
          (a) => a.state === 'pending' && a.canDecide,
        );
        for (const approval of pending) {
          const sent = await desk.call('approvals.approve', {
            id: approval.id,
            note: 'matches the passport',
          });
          if (sent.state === 'sent' && approval.customerId)
            done.approved.push({ id: approval.id, customerId: approval.customerId });
        }
      });
    }
    return ok;
  };
  const running = (async () => {
    for (let n = 1; !state.stopped; n++) {
      if (await iteration(n)) state.rounds++;
      // Yield to the desk's own work (replication, the outbox) between iterations.
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  return {
    done,
    get rounds() {
      return state.rounds;
    },
    get failures() {
      return state.failures;
    },
    async stop() {
      state.stopped = true;
      await running;
    },
  };
}
