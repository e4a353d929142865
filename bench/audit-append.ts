/**
 * What the team audit chain costs its writers. Every append links its entry after the chain's head inside
 * its transaction, holding the head's lock until it commits, so appends from all desks take turns. The
 * baseline is the append as it was before the chain (one INSERT in a transaction of its own, stamped by the
 * store, numbered by a sequence); the subject is the team journal's `audit.record` (the head locked and
 * read, the entry hashed and sealed, the INSERT, the trigger checking the link and moving the head). Both run
 * with `--appenders` desks (a pool each, one connection) appending `--appends` entries each, one after
 * another, at once; and with one desk alone, where nothing waits for the lock. Each sample has a fresh
 * database of its own; samples interleave (baseline, subject, …) and medians are reported. The cluster
 * commits to disk (fsync on), as a team's server does; `--fsync off` shows the cost without the disk.
 *
 *   npx node bench/audit-append.ts [--appenders 8] [--appends 500] [--rounds 3] [--fsync on|off]
 */
import { parseArgs } from 'node:util';
import pg from 'pg';
import { auditSealer } from '#main/data/journal/audit-chain.ts';
import { personalCipher } from '#main/data/journal/personal.ts';
import { systemClock } from '#main/data/journal/time.ts';
import { createFieldKey } from '#main/ground/crypto.ts';
import { teamAuditRepository } from '#main/team/journal/audit.ts';
import { poolDb } from '#main/team/journal/team-db.ts';
import { AUDIT_CHAIN } from '#main/team/store/migrations/06-audit-chain.ts';
import { TEAM_MIGRATIONS } from '#main/team/store/migrations/index.ts';
import { applyTeamMigrations } from '#main/team/store/migrations/runner.ts';
import { type PgCluster, startPgCluster } from '#test/support/postgres/pg-cluster.ts';
import { loadNote } from './support/machine.ts';
import { interleave, median, printResult, quantile, type ResultRow, round3 } from './support/protocol.ts';

type Append = (i: number) => Promise<unknown>;

interface Run {
  perSecond: number;
  p50: number;
  p99: number;
}

/** A fresh store at `version`, and `desks` pools of one connection each on it. */
async function store(cluster: PgCluster, version: number, desks: number) {
  const url = await cluster.createDatabase('bench_audit');
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await applyTeamMigrations(admin, TEAM_MIGRATIONS.slice(0, version));
  await admin.end();
  return Array.from({ length: desks }, () => new pg.Pool({ connectionString: url, max: 1 }));
}

/** The append before the chain: what `teamAuditRepository.record` did at the schema before it. */
function unchained(pool: pg.Pool): Append {
  const db = poolDb(pool);
  return (i) =>
    db.write((client) =>
      client.query(
        `INSERT INTO vetted.audit_log (at, action, customer_id, outcome, detail)
         VALUES ($1, 'note.add', $2, 'ok', $3) RETURNING seq, at, actor, action, customer_id, outcome, detail`,
        [new Date().toISOString(), `c-${i % 50}`, `note ${i}`],
      ),
    );
}

function chained(pool: pg.Pool, teamKey: Buffer): Append {
  const audit = teamAuditRepository({
    db: poolDb(pool),
    cipher: personalCipher(teamKey),
    sealer: auditSealer(teamKey),
    clock: systemClock,
  });
  return (i) =>
    audit.record({ action: 'note.add', customerId: `c-${i % 50}`, outcome: 'ok', detail: `note ${i}` });
}

/** Every desk appends `appends` entries, one after another, all desks at once. */
async function measure(pools: pg.Pool[], make: (pool: pg.Pool) => Append, appends: number): Promise<Run> {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    pools.map(async (pool) => {
      const append = make(pool);
      for (let i = 0; i < appends; i++) {
        const t = performance.now();
        await append(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(pools.map((pool) => pool.end()));
  return {
    perSecond: latencies.length / seconds,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      appenders: { type: 'string', default: '8' },
      appends: { type: 'string', default: '500' },
      rounds: { type: 'string', default: '3' },
      fsync: { type: 'string', default: 'on' },
    },
  });
  const appenders = Number(values.appenders);
  const appends = Number(values.appends);
  const cluster = await startPgCluster({ fsync: values.fsync !== 'off' });
  const teamKey = createFieldKey();
  const rows: ResultRow[] = [];
  try {
    for (const desks of [appenders, 1]) {
      const perDesk = desks === 1 ? appends * 2 : appends;
      const runs: Record<'before' | 'after', Run[]> = { before: [], after: [] };
      const sample = (which: 'before' | 'after') => async () => {
        const version = which === 'before' ? AUDIT_CHAIN.version - 1 : AUDIT_CHAIN.version;
        const pools = await store(cluster, version, desks);
        const run = await measure(
          pools,
          which === 'before' ? unchained : (pool) => chained(pool, teamKey),
          perDesk,
        );
        runs[which].push(run);
        process.stdout.write(
          `${desks} × ${perDesk} ${which === 'before' ? 'unchained' : 'chained  '}: ${Math.round(run.perSecond)}/s, ` +
            `p50 ${run.p50.toFixed(2)} ms, p99 ${run.p99.toFixed(2)} ms (${loadNote()})\n`,
        );
        return run.perSecond;
      };
      const { baselineMedian, subjectMedian } = await interleave(
        Number(values.rounds),
        sample('before'),
        sample('after'),
      );
      const p = (which: 'before' | 'after', q: 'p50' | 'p99') =>
        median(runs[which].map((run) => run[q])).toFixed(2);
      rows.push({
        figure: `audit: chained appends vs unchained, ${desks} × ${perDesk} (fsync ${values.fsync})`,
        goal: '—',
        measured:
          `${round3(subjectMedian / baselineMedian)} (${Math.round(subjectMedian)}/s vs ${Math.round(baselineMedian)}/s; ` +
          `p50 ${p('after', 'p50')} vs ${p('before', 'p50')} ms, p99 ${p('after', 'p99')} vs ${p('before', 'p99')} ms) (${loadNote()})`,
        ratio: round3(subjectMedian / baselineMedian),
        verdict: 'pass',
      });
    }
  } finally {
    await cluster.stop();
  }
  printResult(rows);
}

await main();
