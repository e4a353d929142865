/**
 * The team bench's rows (each figure named for its desks by bench/team.ts) (bench/README.md "Fifty desks"), each with the load average of its span.
 * Connections, as the code opens them (main/team/store/connection-budget.ts): a desk at most
 * DESK_CONNECTIONS (its LISTEN session, its outbox drainer's, and a pool of what is left), + 1 for a moment
 * while Settings → Team asks the store's state; a hub at most HUB_CONNECTIONS (a larger pool, the same two
 * sessions and the one holding, or trying for, the listener role).
 */

import { DESK_CONNECTIONS, HUB_CONNECTIONS } from '#main/team/store/connection-budget.ts';
import { atMost, type ResultRow } from './protocol.ts';
import type { ChangeAccount } from './team-accounting.ts';
import { spread } from './team-accounting.ts';

const ms = (value: number) => `${value.toFixed(1)} ms`;

export function windowRow(windowMs: readonly number[], worstDeskP99: number, load: string): ResultRow {
  const all = spread(windowMs);
  return atMost(
    'a desk’s queue.window while every desk scrolls and searches (all calls, p99)',
    all.p99,
    20,
    ' ms',
    `p99 ${ms(all.p99)} (p50 ${ms(all.p50)}; worst desk's p99 ${ms(worstDeskP99)}; ${all.n} calls) (${load})`,
  );
}

export function visibleRow(account: ChangeAccount, load: string): ResultRow {
  const all = spread(account.latencies);
  const first = spread(account.first);
  const last = spread(account.last);
  return atMost(
    'a change visible on every desk, hub’s receipt → customer.updated (all desk × delivery pairs, p99)',
    all.p99,
    250,
    ' ms',
    `p99 ${ms(all.p99)} (p50 ${ms(all.p50)}); first desk p99 ${ms(first.p99)}, last desk p99 ${ms(last.p99)}, ` +
      `max ${ms(all.max)}; ${account.first.length} deliveries × ${account.byDesk.size} desks, each to the ` +
      `first push of its change or a newer one (${load})`,
  );
}

/** Desks' misses and repeats, and replicas unlike the store; deliveries the store wrote nothing after are the hub's, shown apart. */
export function accountedRow(account: ChangeAccount, replicasEqual: number, desks: number, load: string) {
  const wrong = account.missed + account.twice + (desks - replicasEqual);
  return {
    figure: 'changes missed or seen twice on any desk (and replicas equal to the store at the end)',
    goal: '0',
    measured:
      `changes missed ${account.missed} of ${account.pairs} delivery × desk pairs, ` +
      `(customer, version) pushed twice ${account.twice}` +
      (account.noChange > 0 ? ` (${account.noChange} deliveries with no change written after them)` : '') +
      `; replicas equal to the store ${replicasEqual} of ${desks} (${load})`,
    ratio: wrong,
    verdict: wrong === 0 ? 'pass' : 'miss',
  } satisfies ResultRow;
}

export interface DraftsAccount {
  submitted: number;
  desks: number;
  /** Not created once on the service (no customer with its e-mail, or its row not `created`). */
  lost: number;
  /** More than one customer, or refused as a duplicate e-mail (sent twice without its key). */
  doubled: number;
}

export function draftsRow(drafts: DraftsAccount, load: string): ResultRow {
  const wrong = drafts.lost + drafts.doubled;
  return {
    figure: 'drafts lost or doubled (each submitted draft → one customer on the service)',
    goal: '0',
    measured: `lost ${drafts.lost}, doubled ${drafts.doubled} of ${drafts.submitted} from ${drafts.desks} desks (${load})`,
    ratio: wrong,
    verdict: wrong === 0 && drafts.submitted > 0 ? 'pass' : 'miss',
  };
}

export function connectionsRow(
  peak: { total: number; desk: number; hub: number },
  desks: number,
  hubs: number,
  load: string,
): ResultRow {
  const bound = desks * DESK_CONNECTIONS + hubs * HUB_CONNECTIONS;
  return {
    figure: `PostgreSQL connections, peak (bound ${DESK_CONNECTIONS} a desk, ${HUB_CONNECTIONS} a hub)`,
    goal: `≤ ${bound}`,
    measured: `${peak.total} (most for one desk ${peak.desk}, one hub ${peak.hub}) (${load})`,
    ratio: peak.total,
    verdict:
      peak.total <= bound && peak.desk <= DESK_CONNECTIONS && peak.hub <= HUB_CONNECTIONS ? 'pass' : 'miss',
  };
}

/** The goal (#38) is ≤ 3 ms at four desks; with more, growing at most 2× from four (two runs: a figure only). */
export function storeCpuRow(
  perDeliveryMs: number,
  netMs: number,
  deliveries: number,
  desks: number,
  load: string,
): ResultRow {
  const figure = 'the store’s CPU per delivery (all PostgreSQL processes, /proc)';
  const measured = `${ms(perDeliveryMs)} (${ms(netMs)} beyond the team at rest; ${deliveries} deliveries) (${load})`;
  if (desks <= 4) return atMost(figure, perDeliveryMs, 3, ' ms', measured);
  return {
    figure,
    goal: '≤ 2× four desks’',
    measured,
    ratio: Math.round(perDeliveryMs * 1000) / 1000,
    verdict: 'pass',
  };
}
