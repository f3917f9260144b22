/**
 * Usage, consumption and capacity in the sandbox: every figure derived from the store. Consumption per billing
 * day from the sessions' compute units (the ACU ledger, see `store.ts`), usage metrics and active users from the
 * sessions and searches, the queue from the sessions waiting to run, hypervisor utilization from the running
 * ones. Every read first brings the session simulation up to now, so a session created or finished a moment ago
 * is in today's figures.
 */
import type { SandboxContext, SandboxModule, SeedContext } from '../../context';
import { notFound } from '../../../node/problem-writer';
import { advanceDue } from '../sessions/simulation';
import { listHypervisors, queueState, seedHypervisors } from './capacity';
import {
  dailyConsumption,
  ensureCycleAnchor,
  listCycles,
  resolveRange,
  serviceUserKnown,
  userKnown,
  type LedgerScope,
} from './consumption';
import { activeUsers, prMetrics, searchCount, sessionMetrics, usageMetrics, type WindowKind } from './metrics';
import { listSearches, seedSearches } from './searches';
import { backfillLedger, getMeta, setMeta, USAGE_MIGRATIONS } from './store';

const SEEDED_KEY = 'usage_seeded';

/** Fills what this module needs on a fresh store, and on one seeded before the module existed. */
function ensureUsage(ctx: SeedContext): void {
  const { db } = ctx;
  if (getMeta(db, SEEDED_KEY) === '1') return;
  backfillLedger(db);
  ensureCycleAnchor(db, ctx.rng.int(1, 28));
  if ((db.prepare('SELECT count(*) AS n FROM hypervisors').get() as { n: number }).n === 0) {
    seedHypervisors(db, ctx.rng, ctx.now());
  }
  if ((db.prepare('SELECT count(*) AS n FROM searches').get() as { n: number }).n === 0) {
    seedSearches(db, ctx.rng, ctx.now(), ctx.orgIds());
  }
  setMeta(db, SEEDED_KEY, '1');
}

function consumption(ctx: SandboxContext, scope: LedgerScope, q: { time_after?: number; time_before?: number }) {
  advanceDue(ctx);
  const { after, before } = resolveRange(ctx.db, ctx.now(), q);
  return dailyConsumption(ctx.db, scope, after, before);
}

function active(
  ctx: SandboxContext,
  kind: WindowKind,
  q: { time_after: number; time_before: number; org_ids?: string[]; min_sessions: number; min_searches: number },
) {
  advanceDue(ctx);
  return activeUsers(ctx.db, kind, {
    after: q.time_after,
    before: q.time_before,
    orgIds: q.org_ids,
    minSessions: q.min_sessions,
    minSearches: q.min_searches,
  });
}

const range = (q: { time_after?: number; time_before?: number; org_ids?: string[] }) => ({
  after: q.time_after,
  before: q.time_before,
  orgIds: q.org_ids,
});

export const usageModule: SandboxModule = {
  name: 'usage',
  migrations: USAGE_MIGRATIONS,
  ensure: ensureUsage,
  handlers: {
    'consumption.daily.get': ({ query }, ctx) => consumption(ctx, { kind: 'enterprise' }, query),
    'consumption.daily.organization.get': ({ params, query }, ctx) =>
      consumption(ctx, { kind: 'org', id: params.org_id }, query),
    'consumption.daily.user.get': ({ params, query }, ctx) => {
      if (!userKnown(ctx.db, params.user_id)) throw notFound('User', params.user_id);
      return consumption(ctx, { kind: 'user', id: params.user_id }, query);
    },
    'consumption.daily.serviceUser.get': ({ params, query }, ctx) => {
      if (!serviceUserKnown(ctx.db, params.service_user_id)) throw notFound('Service user', params.service_user_id);
      return consumption(ctx, { kind: 'service_user', id: params.service_user_id }, query);
    },
    'consumption.cycles.list': ({ query }, ctx) => listCycles(ctx.db, ctx.now(), query.first, query.after),

    'metrics.usage.get': ({ params, query }, ctx) => {
      advanceDue(ctx);
      return usageMetrics(ctx.db, { ...range(query), orgIds: [params.org_id] });
    },
    'metrics.enterprise.usage.get': ({ query }, ctx) => {
      advanceDue(ctx);
      return usageMetrics(ctx.db, range(query));
    },
    'metrics.activeUsers.get': ({ query }, ctx) => active(ctx, 'range', query)[0]!,
    'metrics.dau.list': ({ query }, ctx) => active(ctx, 'day', query),
    'metrics.wau.list': ({ query }, ctx) => active(ctx, 'week', query),
    'metrics.mau.list': ({ query }, ctx) => active(ctx, 'month', query),
    'metrics.prs.get': ({ query }, ctx) => {
      advanceDue(ctx);
      return prMetrics(ctx.db, range(query));
    },
    'metrics.sessions.get': ({ query }, ctx) => {
      advanceDue(ctx);
      return sessionMetrics(ctx.db, range(query));
    },
    'metrics.searches.get': ({ query }, ctx) => ({ searches_created_count: searchCount(ctx.db, range(query)) }),

    // Read as the simulation's loop last left it (at most one tick old), without stepping the due sessions here:
    // the shell asks for the queue on every page, and stepping hundreds of sessions made it take 20–200 ms.
    'queue.get': (_input, ctx) => queueState(ctx.db),
    'hypervisors.list': ({ query }, ctx) => {
      advanceDue(ctx);
      return listHypervisors(ctx.db, ctx.now(), query.status, query.first, query.after);
    },

    'searches.list': ({ params, query }, ctx) =>
      listSearches(
        ctx.db,
        `searches:${params.org_id}`,
        { orgIds: [params.org_id], after: query.time_after, before: query.time_before },
        query.first,
        query.after,
      ),
    'searches.enterprise.list': ({ query }, ctx) =>
      listSearches(
        ctx.db,
        'searches:enterprise',
        { orgIds: query.org_ids, after: query.time_after, before: query.time_before },
        query.first,
        query.after,
      ),
  },
};
