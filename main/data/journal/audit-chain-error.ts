// The failure of an audit chain's check: the first entry (by seq) where the chain does not hold, and what is
// wrong there. Its own module, so that the checker and the seal keys' stretches both throw it.

export class AuditChainError extends Error {
  override name = 'AuditChainError';
  readonly seq: number;
  constructor(seq: number, message: string) {
    super(message);
    this.seq = seq;
  }
}
