import { z } from 'zod';
import { isoTime } from './clock.ts';
import { customerCountsByStatus, receivedFields, requireCustomer } from './customers.ts';
import { fieldValidationError } from './errors.ts';
import { faultConfigSchema } from './faults.ts';
import { tokensIssued } from './oauth.ts';
import { JSON_MEDIA_TYPE, type Reply } from './reply.ts';
import type { App, RequestContext, Route } from './types.ts';
import { parseBody } from './validation.ts';

/** The sandbox's own controls, for tests and training: the clock, injected faults, counters. */
const TEN_YEARS_SECONDS = 10 * 366 * 24 * 60 * 60;

const clockSchema = z.object({ advanceSeconds: z.number().min(0).max(TEN_YEARS_SECONDS) });

/** Moves the clock forward and resolves once everything that fell due has run. */
export async function advanceClock(app: App, seconds: number): Promise<void> {
  app.clock.advance(seconds);
  await app.scheduler.drain();
}

const jsonReply = (body: unknown): Reply => ({ status: 200, body, contentType: JSON_MEDIA_TYPE });

function clockState(app: App): Reply {
  return jsonReply({ now: isoTime(app.clock.now()), offsetSeconds: app.clock.offsetMs / 1000 });
}

async function moveClock(ctx: RequestContext): Promise<Reply> {
  const { advanceSeconds } = parseBody(clockSchema, ctx.json);
  await advanceClock(ctx.app, advanceSeconds);
  return clockState(ctx.app);
}

function setFaults(ctx: RequestContext): Reply {
  const { app } = ctx;
  const config = parseBody(faultConfigSchema, ctx.json);
  const foreign = config.kinds.filter((kind) => !app.profile.faultKinds.includes(kind));
  if (foreign.length > 0) {
    throw fieldValidationError([
      {
        path: '/kinds',
        code: 'Invalid',
        message: `${foreign.join(', ')}: only in the real profile (npm run sandbox -- --profile real).`,
      },
    ]);
  }
  app.faults.set(config, app.clock.now());
  return jsonReply(app.faults.configAt(app.clock.now()));
}

function deliveryCounts(app: App): { attempted: number; succeeded: number; failed: number } {
  const row = app.store.get<{ attempted: number; succeeded: number | null }>(
    'SELECT COUNT(*) AS attempted, SUM(succeeded) AS succeeded FROM attempts',
  );
  const attempted = row?.attempted ?? 0;
  const succeeded = row?.succeeded ?? 0;
  return { attempted, succeeded, failed: attempted - succeeded };
}

function stats(ctx: RequestContext): Reply {
  const { app } = ctx;
  return jsonReply({
    tokensIssued: tokensIssued(app.store),
    requests: app.stats.requests(),
    customers: customerCountsByStatus(app.store),
    deliveries: deliveryCounts(app),
    heldRequests: app.faults.held,
  });
}

export function controlRoutes(): Route[] {
  return [
    { method: 'GET', pattern: '/sandbox/clock', kind: 'control', handle: (ctx) => clockState(ctx.app) },
    { method: 'POST', pattern: '/sandbox/clock', kind: 'control', body: 'json', handle: moveClock },
    {
      method: 'GET',
      pattern: '/sandbox/faults',
      kind: 'control',
      handle: (ctx) => jsonReply(ctx.app.faults.configAt(ctx.app.clock.now())),
    },
    { method: 'POST', pattern: '/sandbox/faults', kind: 'control', body: 'json', handle: setFaults },
    { method: 'GET', pattern: '/sandbox/stats', kind: 'control', handle: stats },
    {
      method: 'GET',
      pattern: '/sandbox/customers/{id}',
      kind: 'control',
      handle: (ctx) => jsonReply(receivedFields(ctx.app, requireCustomer(ctx.app.store, ctx.params.id!))),
    },
  ];
}
