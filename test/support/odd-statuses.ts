/** Statuses no service documents, chosen to trip lookups in plain objects and string handling. */
export const ODD_STATUSES = [
  '',
  ' ',
  'RETRY',
  'Kba',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'document\u0000',
  'статус',
  '🙂',
  'x'.repeat(5000),
  'drafts',
  'review',
  'other',
];
