/** Request counts per route and outcome, for `GET /sandbox/stats`; the rest of the stats come from the store. */
export class Stats {
  readonly #requests = new Map<string, Map<string, number>>();

  /** `outcome` is the status code, or `reset` / `aborted` when no response went out. */
  countRequest(route: string, outcome: string): void {
    let byOutcome = this.#requests.get(route);
    if (!byOutcome) {
      byOutcome = new Map();
      this.#requests.set(route, byOutcome);
    }
    byOutcome.set(outcome, (byOutcome.get(outcome) ?? 0) + 1);
  }

  requests(): Record<string, Record<string, number>> {
    const result: Record<string, Record<string, number>> = {};
    for (const [route, byOutcome] of this.#requests) result[route] = Object.fromEntries(byOutcome);
    return result;
  }
}
