/**
 * `/console/consumption/principals`: every member's and service user's compute units over one range, summed
 * here so the browser makes one call. The API has only a per-principal read, so this is hundreds of calls: made
 * eight at a time, within a time bound (a principal not reached in time says so; the others are still answered),
 * and an answer without errors is kept a short while, so the screens that read it one after the other (and a
 * reload) do not read the whole enterprise again. Identical reads in flight are shared.
 */
import type { PrincipalConsumption, PrincipalConsumptionList } from '../../../api/console/principal-consumption';
import { PRINCIPAL_CONSUMPTION_MAX } from '../../../api/console/principal-consumption';
import type { ConsumptionResponse } from '../../../api/operations/consumption';
import type { ConsoleHandlers } from '../mount';
import { UpstreamProblem, type UpstreamClient } from '../upstream-client';
import { pool } from '../../../api/pool';

export interface PrincipalConsumptionDeps {
  upstream: UpstreamClient;
  /** Calls in flight at once (default 8). */
  concurrency?: number;
  /** The longest one whole read may take, in milliseconds (default 20 s). */
  deadlineMs?: number;
  /**
   * How long an answer without errors is kept, in milliseconds (default 30 s: long enough for the two screens
   * read one after the other, short enough that a reload soon shows new figures).
   */
  keepMs?: number;
  clock?: () => number;
}

type Range = { time_after: number; time_before: number };
type Principal = { kind: PrincipalConsumption['kind']; id: string };

/** Answers kept at most (one per range asked for; the oldest goes first). */
const MAX_KEPT = 16;

/** A refusal of the credential itself: it would refuse every principal alike, so the whole read fails. */
const refused = (err: unknown) => err instanceof UpstreamProblem && (err.status === 401 || err.status === 403);

const why = (err: unknown) =>
  err instanceof UpstreamProblem ? (err.body.detail ?? err.body.title) : 'The Agent Platform API could not be read';

/** Every member and service user (expired ones too: they may have consumed in the range). */
async function readPrincipals(upstream: UpstreamClient, signal: AbortSignal): Promise<Principal[]> {
  // A list the upstream does not serve at the contract's path leaves its principals out: the browser reads
  // those one by one. A refused credential fails the whole read.
  const list = (read: Promise<unknown[]>) =>
    read.catch((err: unknown) => {
      if (refused(err) || signal.aborted) throw err;
      return [] as unknown[];
    });
  const [users, serviceUsers] = await Promise.all([
    list(upstream.all('members.users.list', { signal, maxItems: PRINCIPAL_CONSUMPTION_MAX })),
    list(
      upstream.all('serviceUsers.list', {
        query: { include_inactive: 'true' },
        signal,
        maxItems: PRINCIPAL_CONSUMPTION_MAX,
      }),
    ),
  ]);
  const ids = (items: unknown[], field: string) =>
    items
      .map((x) => (x as Record<string, unknown>)[field])
      .filter((id): id is string => typeof id === 'string' && id.length > 0);
  return [
    ...ids(users, 'user_id').map((id) => ({ kind: 'member' as const, id })),
    ...ids(serviceUsers, 'service_user_id').map((id) => ({ kind: 'service_user' as const, id })),
  ].slice(0, PRINCIPAL_CONSUMPTION_MAX);
}

function consumptionOf(p: Principal, resp: ConsumptionResponse): PrincipalConsumption {
  return {
    kind: p.kind,
    id: p.id,
    total_acus: resp.total_acus,
    days: resp.consumption_by_date.filter((d) => d.acus !== 0).map((d) => ({ date: d.date, acus: d.acus })),
    error: null,
  };
}

/** One whole read: the principals, then each one's consumption over `range`. */
export async function readPrincipalConsumption(
  upstream: UpstreamClient,
  range: Range,
  opts: { concurrency: number; deadlineMs: number; now: () => number },
): Promise<PrincipalConsumptionList> {
  const deadline = AbortSignal.timeout(opts.deadlineMs);
  const principals = await readPrincipals(upstream, deadline);
  const late = `Not read: the whole read took longer than ${Math.round(opts.deadlineMs / 1000)} s`;
  const items = await pool(principals, opts.concurrency, async (p): Promise<PrincipalConsumption> => {
    if (deadline.aborted) return { kind: p.kind, id: p.id, total_acus: null, days: null, error: late };
    try {
      const resp =
        p.kind === 'member'
          ? await upstream.call('consumption.daily.user.get', {
              params: { user_id: p.id },
              query: range,
              signal: deadline,
            })
          : await upstream.call('consumption.daily.serviceUser.get', {
              params: { service_user_id: p.id },
              query: range,
              signal: deadline,
            });
      return consumptionOf(p, resp);
    } catch (err) {
      if (refused(err)) throw err;
      return { kind: p.kind, id: p.id, total_acus: null, days: null, error: deadline.aborted ? late : why(err) };
    }
  });
  return { ...range, read_at: Math.floor(opts.now() / 1000), items };
}

/** The kept, shared read of one range: an answer without errors is kept `keepMs`; identical reads share one. */
export function createPrincipalConsumptionReader(
  deps: PrincipalConsumptionDeps,
): (range: Range) => Promise<PrincipalConsumptionList> {
  const concurrency = deps.concurrency ?? 8;
  const deadlineMs = deps.deadlineMs ?? 20_000;
  const keepMs = deps.keepMs ?? 30_000;
  const now = deps.clock ?? Date.now;
  const kept = new Map<string, { at: number; answer: PrincipalConsumptionList }>();
  const inFlight = new Map<string, Promise<PrincipalConsumptionList>>();

  const read = (range: Range): Promise<PrincipalConsumptionList> => {
    const key = `${range.time_after}:${range.time_before}`;
    const hit = kept.get(key);
    if (hit && now() - hit.at < keepMs) return Promise.resolve(hit.answer);
    kept.delete(key);
    const running = inFlight.get(key);
    if (running) return running;
    // Not tied to one browser's request: another may be waiting for the same read.
    const started = readPrincipalConsumption(deps.upstream, range, { concurrency, deadlineMs, now })
      .then((answer) => {
        if (answer.items.every((i) => i.error === null)) {
          kept.set(key, { at: now(), answer });
          while (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
        }
        return answer;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  };
  return read;
}

export function principalConsumptionHandlers(deps: PrincipalConsumptionDeps): ConsoleHandlers {
  const read = createPrincipalConsumptionReader(deps);
  return {
    'console.consumption.principals.get': ({ query }) =>
      read({ time_after: query.time_after, time_before: query.time_before }),
  };
}
