// What a desk does in a nemesis run, through its own channels (the contract's dispatch, as the window's IPC
// reaches them): submits drafts, writes notes, takes and releases cases (by hand and "next"), asks for
// exports with names (four eyes), approves others' as a lead, and collects its own once approved. Each
// operation is reported when invoked and when it ends (ok, refused in words, or unknown), so a desk stopped
// or cut off mid-call leaves an invocation without an end: the run counts it unanswered.
import type { ChannelInput, ChannelName, ChannelOutput } from '#contract/channels.ts';
import { validForm } from '#test/support/desk/drafts.ts';
import { noteText, type Op, type OpKind } from './history.ts';

export type Call = <C extends ChannelName>(channel: C, input?: ChannelInput<C>) => Promise<ChannelOutput<C>>;

/** A failure a desk reports on purpose, with its code (what the dispatcher answers). */
export class CallRefused extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** Refusals that say the operation did not happen; any other failure leaves its outcome unknown. */
const REFUSALS = new Set([
  'BadInput',
  'ClaimedByOther',
  'NotYourClaim',
  'ApprovalSettled',
  'OwnApproval',
  'NotYourApproval',
  'NoSuchApproval',
  'LeadOnly',
  'NotFound',
  'AlreadyWaiting',
]);

export interface WorkloadOptions {
  call: Call;
  desk: string;
  /** The desk's process (1, then 2 after a crash…): part of each operation's id. */
  incarnation: number;
  lead: boolean;
  /** The cases notes and claims are about. */
  customers: readonly string[];
  /** The pause between two operations, on average (each 0.5–1.5 × this). */
  everyMs: number;
  random: () => number;
  stopped(): boolean;
  invoked(op: Op): void;
  ended(op: Op): void;
}

type Step = { kind: OpKind; weight: number; run: (op: Op) => Promise<void> };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runWorkload(options: WorkloadOptions): Promise<void> {
  const { call, random } = options;
  const pick = <T>(list: readonly T[]): T | undefined => list[Math.floor(random() * list.length)];
  const mine = new Set<string>();
  const steps = stepsOf(call, options.lead, mine);
  const total = steps.reduce((sum, s) => sum + s.weight, 0);
  const draw = () => {
    let roll = random() * total;
    for (const step of steps) {
      roll -= step.weight;
      if (roll < 0) return step;
    }
    return steps[0]!;
  };
  for (let n = 1; !options.stopped(); n++) {
    await sleep(options.everyMs * (0.5 + random()));
    if (options.stopped()) break;
    const step = draw();
    const op: Op = {
      id: `${options.desk}-${options.incarnation}.${n}`,
      desk: options.desk,
      kind: step.kind,
      key: '',
      invokedAt: Date.now(),
      outcome: 'unknown',
    };
    if (!(await aim(op, { call, pick, mine, customers: options.customers }))) continue;
    options.invoked({ ...op });
    try {
      await step.run(op);
      op.outcome = 'ok';
    } catch (error) {
      const code = error instanceof CallRefused ? error.code : 'Thrown';
      op.outcome = REFUSALS.has(code) ? 'fail' : 'unknown';
      op.error = `${code}: ${error instanceof Error ? error.message : String(error)}`;
    }
    op.completedAt = Date.now();
    options.ended(op);
  }
}

/** Each operation, how often it is drawn (a weight), and how it runs once aimed (`aim`). */
function stepsOf(call: Call, lead: boolean, mine: Set<string>): Step[] {
  return [
    {
      kind: 'draft',
      weight: 3,
      async run(op) {
        const { id } = await call('drafts.create');
        op.ref = id;
        await call('drafts.save', { id, form: validForm({ firstName: 'Nemesis', email: op.key }) });
        const result = await call('drafts.submit', { ids: [id] });
        if (!result.queued.includes(id)) throw new CallRefused('NotQueued', JSON.stringify(result));
      },
    },
    {
      kind: 'note',
      weight: 3,
      run: async (op) => {
        await call('notes.add', { customerId: op.ref!, text: op.key });
      },
    },
    {
      kind: 'take',
      weight: 2,
      async run(op) {
        await call('claims.take', { customerId: op.ref! });
        mine.add(op.ref!);
      },
    },
    {
      kind: 'release',
      weight: 2,
      async run(op) {
        mine.delete(op.ref!);
        await call('claims.release', { customerId: op.ref! });
      },
    },
    {
      kind: 'next',
      weight: 1,
      async run(op) {
        const { claim } = await call('claims.next');
        if (claim) {
          op.ref = claim.customerId;
          mine.add(claim.customerId);
        }
      },
    },
    {
      // Only a lead may export with names: the other lead approves.
      kind: 'requestExport',
      weight: lead ? 1 : 0,
      async run(op) {
        const asked = await call('approvals.requestExport', {
          section: 'all',
          search: '',
          revealReason: `nemesis ${op.id}`,
        });
        op.ref = asked.id;
        op.key = asked.id;
      },
    },
    {
      kind: 'approve',
      weight: lead ? 2 : 0,
      run: async (op) => {
        await call('approvals.approve', { id: op.key, note: 'nemesis approves' });
      },
    },
    {
      kind: 'collect',
      weight: 1,
      run: async (op) => {
        await call('approvals.collect', { id: op.key });
      },
    },
  ];
}

interface Aim {
  call: Call;
  pick: <T>(list: readonly T[]) => T | undefined;
  mine: Set<string>;
  customers: readonly string[];
}

/** Chooses what the operation is about (a case, an approval); false when there is nothing to do it to. */
async function aim(op: Op, { call, pick, mine, customers }: Aim): Promise<boolean> {
  switch (op.kind) {
    case 'draft':
      op.key = `nemesis.${op.id}@example.com`;
      return true;
    case 'note':
      op.ref = pick(customers);
      op.key = noteText(op.id);
      return op.ref !== undefined;
    case 'take':
      op.ref = pick(customers);
      op.key = op.ref ?? '';
      return op.ref !== undefined;
    case 'release':
      op.ref = pick([...mine]);
      op.key = op.ref ?? '';
      return op.ref !== undefined;
    case 'next':
    case 'requestExport':
      return true;
    case 'approve':
    case 'collect': {
      // What waits: read first (not an operation of its own; a failed read skips the turn).
      const list = await call('approvals.list').catch(() => []);
      const candidates = list.filter((a) =>
        op.kind === 'approve' ? a.state === 'pending' && a.canDecide : a.state === 'approved' && a.mine,
      );
      op.key = pick(candidates)?.id ?? '';
      return op.key !== '';
    }
  }
}
