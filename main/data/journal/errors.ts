/**
 * A journal that cannot be used as it is: newer schema, not a Vetted journal, personal data that does not
 * decrypt. The message names the file or a record id, never personal data.
 */
export class JournalError extends Error {
  override name = 'JournalError';
}
