import type { CustomerInput } from '#contract/customer-rules.ts';

/**
 * A valid personal customer for tests and benchmarks: the fields every sample person shares (an
 * address the sandbox accepts, a birth date, the SSN's last four digits), with the name and e-mail
 * each caller picks. The sandbox decides the status by the first name (`retry`, `document`…).
 */
export const SAMPLE_ADDRESS = {
  type: 'personal',
  address1: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  postalCode: '62701',
  dateOfBirth: '1990-01-01',
  tin: '1234',
} as const;

export function samplePerson(
  firstName: string,
  lastName: string,
  email: string,
  more: CustomerInput = {},
): CustomerInput & typeof SAMPLE_ADDRESS & { firstName: string; lastName: string; email: string } {
  return { firstName, lastName, email, ...SAMPLE_ADDRESS, ...more } as never;
}
