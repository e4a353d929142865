/**
 * A customer as the store keeps it. Apart from customers.ts so the profiles, which answer per
 * status, can name it without importing the customer handlers (which ask the profile).
 * The last three statuses exist only in the real profile (real-service.md).
 */
export type CustomerStatus =
  | 'verified'
  | 'retry'
  | 'document'
  | 'suspended'
  | 'unverified'
  | 'kba'
  | 'deactivated';

export interface CustomerRow extends Record<string, unknown> {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  type: string;
  status: CustomerStatus;
  retried: number;
  created_ms: number;
}
