/**
 * Liveness and readiness of one console replica, for load balancers and orchestrators:
 *   - `/console/livez`: the process serves requests (always 200 while it can answer at all). A liveness probe
 *     must not restart a replica because its database or the API is down: that would not bring them back.
 *   - `/console/readyz`: the replica can do its work — its store answers and the API answers — with each one's
 *     state and since when; 503 while either is down, 200 again by itself once both are back.
 * The API is probed with `GET /v3/self` and the configured credential, at most once per `cacheMs` however often
 * the probes come: any answer below 500 means it is reachable (a 401 is a credential problem, not an outage).
 */
import type { StoreState } from './storage/postgres';

export interface Dependency {
  [member: string]: unknown;
  state: 'ok' | 'unavailable';
  /** Unix seconds since this state holds (since the replica started, for a dependency never down). */
  since: number;
  /** Why it is unavailable (never a secret); null while it answers. */
  error: string | null;
}

export interface Readiness {
  ready: boolean;
  store: StoreState & { since: number };
  upstream: Dependency;
}

export interface ReadinessDeps {
  /** Checks the store now. */
  storeHealth: () => Promise<StoreState>;
  upstream: { baseUrl: string; apiKey: string };
  /** Longest the API probe may take (default 3 s). */
  timeoutMs?: number;
  /** How long one probe of the API answers for (default 2 s). */
  cacheMs?: number;
  now?: () => number;
}

/** A state with the moment it began: a change of state moves `since`, the same state keeps it. */
function tracker(start: number) {
  let state: 'ok' | 'unavailable' = 'ok';
  let since = start;
  return (next: 'ok' | 'unavailable', at: number) => {
    if (next !== state) {
      state = next;
      since = at;
    }
    return since;
  };
}

export function createReadiness(deps: ReadinessDeps) {
  const now = deps.now ?? Date.now;
  const seconds = () => Math.floor(now() / 1000);
  const started = seconds();
  const storeSince = tracker(started);
  const upstreamSince = tracker(started);
  const timeoutMs = deps.timeoutMs ?? 3_000;
  const cacheMs = deps.cacheMs ?? 2_000;
  let cached: { at: number; state: 'ok' | 'unavailable'; error: string | null } | undefined;
  let probing: Promise<{ state: 'ok' | 'unavailable'; error: string | null }> | undefined;

  async function probeUpstream(): Promise<{ state: 'ok' | 'unavailable'; error: string | null }> {
    const url = `${deps.upstream.baseUrl.replace(/\/+$/, '')}/v3/self`;
    try {
      const res = await fetch(url, {
        headers: { authorization: `Bearer ${deps.upstream.apiKey}`, accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await res.body?.cancel().catch(() => undefined);
      return res.status < 500
        ? { state: 'ok', error: null }
        : { state: 'unavailable', error: `the API answered HTTP ${res.status}` };
    } catch (err) {
      const e = err as { name?: string; cause?: { code?: string } };
      const reason =
        e.name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : (e.cause?.code ?? (err instanceof Error ? err.message : 'unknown error'));
      return { state: 'unavailable', error: `the API cannot be reached (${reason})` };
    }
  }

  async function upstreamState() {
    if (cached && now() - cached.at < cacheMs) return cached;
    probing ??= probeUpstream().finally(() => (probing = undefined));
    const r = await probing;
    cached = { at: now(), ...r };
    return cached;
  }

  return {
    async check(): Promise<Readiness> {
      const [store, up] = await Promise.all([deps.storeHealth(), upstreamState()]);
      const at = seconds();
      return {
        ready: store.state === 'ok' && up.state === 'ok',
        store: {
          ...store,
          since: store.state === 'ok' ? storeSince('ok', at) : storeSince('unavailable', store.unavailable_since ?? at),
        },
        upstream: { state: up.state, since: upstreamSince(up.state, at), error: up.error },
      };
    },
  };
}
