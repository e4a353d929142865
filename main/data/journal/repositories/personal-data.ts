// A customer's personal data as the journal's interface passes it; at rest it is encrypted (personal.ts).
import { z } from 'zod';

export const AddressSchema = z.object({
  address1: z.string(),
  address2: z.string().optional(),
  city: z.string(),
  state: z.string(),
  postalCode: z.string(),
});
export type Address = z.infer<typeof AddressSchema>;

/** A customer's personal data, as given on creation (or on the retry). */
export interface PersonalData {
  address: Address;
  /** `YYYY-MM-DD` */
  dateOfBirth: string;
  /** The last four digits of the SSN: the full SSN is never stored. */
  ssnLastFour: string;
}
