import { randomUUID } from 'node:crypto';
import { samplePerson } from '#test/support/person.ts';

/**
 * The built-in sandbox driven over its own HTTP API, as the service's other clients would drive
 * the real one: the e2e tests make customers there and move its clock.
 */
export interface SandboxClient {
  baseUrl: string;
  /** A new customer; its first name decides its status (`retry`, `document`, `suspended`, else verified). */
  createCustomer(firstName: string, lastName: string): Promise<{ id: string; email: string }>;
  /** An ID document for a customer in `document`; the sandbox reviews it a minute later on its clock. */
  uploadDocument(customerId: string): Promise<void>;
  advanceClock(seconds: number): Promise<void>;
  /** Holds every read of one customer for `delayMs`: slow enough to watch a job's progress. */
  slowCustomerReads(delayMs: number): Promise<void>;
  /**
   * Sets the sandbox's injected faults (sandbox/faults.ts): `{ rate: 1, kinds: ['reset'] }` drops
   * every connection, so the service cannot be reached; `{ rate: 0 }` ends that.
   */
  setFaults(faults: { rate: number; kinds?: string[]; paths?: string[]; delayMs?: number }): Promise<void>;
  /** What the service last received for the customer with this e-mail (`GET /sandbox/customers/{id}`). */
  received(email: string): Promise<Record<string, unknown>>;
}

interface SandboxAccess {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
}

const HAL = 'application/vnd.service.v1.hal+json';

export async function sandboxClient({
  baseUrl,
  clientId,
  clientSecret,
}: SandboxAccess): Promise<SandboxClient> {
  const token = await fetchToken(baseUrl, clientId, clientSecret);
  const send = async (method: string, path: string, body?: string | FormData, contentType?: string) => {
    const headers: Record<string, string> = { accept: HAL, authorization: `Bearer ${token}` };
    if (contentType) headers['content-type'] = contentType;
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response;
  };
  const setFaults: SandboxClient['setFaults'] = async (faults) => {
    await send('POST', '/sandbox/faults', JSON.stringify(faults), 'application/json');
  };
  return {
    baseUrl,
    setFaults,
    async createCustomer(firstName, lastName) {
      const email = `${firstName}.${lastName}.${randomUUID().slice(0, 8)}@example.com`.toLowerCase();
      const response = await send(
        'POST',
        '/customers',
        JSON.stringify(person(firstName, lastName, email)),
        HAL,
      );
      const location = response.headers.get('location') ?? '';
      return { id: location.split('/').at(-1) ?? '', email };
    },
    async uploadDocument(customerId) {
      const form = new FormData();
      form.set('documentType', 'passport');
      form.set('file', new Blob([jpeg()], { type: 'image/jpeg' }), 'passport.jpg');
      await send('POST', `/customers/${customerId}/documents`, form);
    },
    async advanceClock(seconds) {
      await send('POST', '/sandbox/clock', JSON.stringify({ advanceSeconds: seconds }), 'application/json');
    },
    async received(email) {
      const found = await send('GET', `/customers?email=${encodeURIComponent(email)}`);
      const { _embedded } = (await found.json()) as { _embedded: { customers: { id: string }[] } };
      const [customer] = _embedded.customers;
      if (!customer) throw new Error(`The sandbox has no customer with the e-mail ${email}.`);
      return (await send('GET', `/sandbox/customers/${customer.id}`)).json() as Promise<
        Record<string, unknown>
      >;
    },
    async slowCustomerReads(delayMs) {
      await setFaults({ rate: 1, kinds: ['delay'], paths: ['/customers/{id}'], delayMs });
    },
  };
}

async function fetchToken(baseUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const response = await fetch(`${baseUrl}/oauth/v2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_id: clientId,
      client_secret: clientSecret,
      grant_type: 'client_credentials',
    }),
  });
  if (!response.ok) throw new Error(`token: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

const person = (firstName: string, lastName: string, email: string) =>
  samplePerson(firstName, lastName, email, { ipAddress: '203.0.113.7' });

/** The smallest file the sandbox takes for a JPEG: its start and end markers. */
function jpeg(size = 2048): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
  bytes[size - 2] = 0xff;
  bytes[size - 1] = 0xd9;
  return bytes;
}
