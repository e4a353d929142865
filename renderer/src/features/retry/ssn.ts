/**
 * The digits typed, hyphenated as the service wants them (`NNN-NN-NNNN`): the input is masked, so the
 * reviewer cannot see where hyphens went, and pasting "123 45 6789" works too. At most nine digits.
 */
export function formatSsn(typed: string): string {
  const digits = typed.replace(/\D/g, '').slice(0, 9);
  if (digits.length <= 3) return digits;
  if (digits.length <= 5) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
}
