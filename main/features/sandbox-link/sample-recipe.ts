import type { CustomerForm } from '#contract/drafts.ts';
import { SAMPLE_EMAIL_DOMAIN } from '#contract/sandbox-panel.ts';
import type { SandboxProfile } from '#sandbox/index.ts';

/**
 * The sample customers, one recipe: who they are and what the built-in sandbox makes of them. The sandbox
 * decides a new customer's status by its first name (`retry`, `document`, `suspended`; in the real profile
 * also `kba`, `unverified`; anything else `verified`: service-facts.md §4, sandbox/README.md), and a
 * document's review by the file's name (`fail` → rejected). A dozen on either profile.
 */
export interface SampleCustomer {
  firstName: string;
  lastName: string;
  /** The status the sandbox gives it on creation. */
  status: 'retry' | 'document' | 'suspended' | 'kba' | 'unverified' | 'verified';
  /** A note the reviewer might have written. */
  note?: string;
  /** A file uploaded once it needs a document; `fail` in its name has the sandbox's review reject it. */
  upload?: string;
  /** Only where the profile has the status (the interface profile has no `kba` nor `unverified`). */
  profile?: SandboxProfile;
}

export const SAMPLE_CUSTOMERS: readonly SampleCustomer[] = [
  {
    firstName: 'Retry',
    lastName: 'Fernández-López',
    status: 'retry',
    note: 'The date of birth on the form looks swapped: day and month.',
  },
  {
    firstName: 'Document',
    lastName: 'Wojciechowska',
    status: 'document',
    upload: 'passport-blurry-fail.png',
    note: 'Asked her for a sharper photo of the passport by e-mail.',
  },
  { firstName: 'Document', lastName: 'Lindqvist', status: 'document' },
  { firstName: 'Suspended', lastName: 'O’Brien', status: 'suspended' },
  { firstName: 'Kba', lastName: 'Chen', status: 'kba', profile: 'real' },
  { firstName: 'Unverified', lastName: 'Mensah', status: 'unverified', profile: 'real' },
  { firstName: 'Hannah', lastName: 'Schmidt-Bergström', status: 'verified' },
  { firstName: 'Rafael', lastName: 'Souza Nascimento', status: 'verified' },
  { firstName: 'Oluwaseun', lastName: 'Adebayo-Okonkwo', status: 'verified' },
  { firstName: 'Jean-Baptiste', lastName: 'Moreau', status: 'verified' },
  { firstName: 'Lena', lastName: 'Kowalczyk', status: 'verified' },
  { firstName: 'Amara', lastName: 'Nwosu', status: 'verified' },
  { firstName: 'Kwame', lastName: 'Asante', status: 'verified', profile: 'interface' },
  { firstName: 'Chen', lastName: 'Wei', status: 'verified', profile: 'interface' },
];

/** The samples the profile in use gives: a dozen. */
export const samplesFor = (profile: SandboxProfile): SampleCustomer[] =>
  SAMPLE_CUSTOMERS.filter((sample) => sample.profile === undefined || sample.profile === profile);

/** A sample's e-mail: fixed, so the same sample is recognised (and never made twice). */
export function sampleEmail(sample: SampleCustomer): string {
  const local = `${sample.firstName}.${sample.lastName}`
    .normalize('NFD')
    .replace(/[\u0300-\u036f’]/g, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '.');
  return `${local}@${SAMPLE_EMAIL_DOMAIN}`;
}

/** The whole creation form, valid for either profile (the desk maps `tin` to the real profile's `ssn`). */
export function sampleForm(sample: SampleCustomer): CustomerForm {
  return {
    type: 'personal',
    firstName: sample.firstName,
    lastName: sample.lastName,
    email: sampleEmail(sample),
    address1: '221 Baker Street',
    address2: '',
    city: 'Springfield',
    state: 'IL',
    postalCode: '62704',
    dateOfBirth: '1984-02-29',
    tin: '6789',
    ipAddress: '',
  };
}
