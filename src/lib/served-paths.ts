/**
 * Which path of an operation the upstream serves, learned by the browser and remembered per upstream. Loaded
 * lazily by the API client (src/lib/api-client.ts) only once a call answers 404/405 or a choice was remembered
 * earlier, so the alternates table stays off the first screen. The rule itself (order of the paths, what
 * counts as "not served", what is remembered) is the contract's shared one, src/api/path-choice.ts.
 *
 * The memory is kept in this page and in localStorage, keyed by the upstream's identity as `/console/config`
 * tells it: a console pointed at another API (or the sandbox in the vendor's shape) starts from the spec's
 * paths again instead of from another upstream's answers.
 */
import { callAtServedPath, type PathMemory } from '@/api/path-choice';
import { ALTERNATES } from './alternates.gen';
import { isApiError, type ApiError } from './api-error';
import { request, SERVED_PATHS_KEY } from './api-client';

/** Upstreams whose choices are kept in storage; the oldest is dropped past this. */
const MAX_UPSTREAMS = 8;
/** The identity used while `/console/config` cannot be read: remembered in this page only. */
const UNKNOWN = '';

type Stored = Record<string, Record<string, string>>;

function readStored(): Stored {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(SERVED_PATHS_KEY) ?? '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: Stored = {};
    for (const [upstream, choices] of Object.entries(parsed as Record<string, unknown>)) {
      if (!choices || typeof choices !== 'object') continue;
      const kept = Object.entries(choices as Record<string, unknown>).filter(
        (e): e is [string, string] => typeof e[1] === 'string',
      );
      out[upstream] = Object.fromEntries(kept);
    }
    return out;
  } catch {
    return {};
  }
}

function writeStored(upstream: string, choices: Record<string, string>): void {
  try {
    const all = readStored();
    delete all[upstream];
    if (Object.keys(choices).length > 0) all[upstream] = choices;
    const upstreams = Object.keys(all);
    for (const old of upstreams.slice(0, Math.max(0, upstreams.length - MAX_UPSTREAMS))) delete all[old];
    // Nothing stored once every upstream serves the spec's paths: later pages then skip this module.
    if (upstreams.length === 0) localStorage.removeItem(SERVED_PATHS_KEY);
    else localStorage.setItem(SERVED_PATHS_KEY, JSON.stringify(all));
  } catch {
    // storage may be unavailable or full: the choice is still kept in this page
  }
}

const memories = new Map<string, PathMemory>();

/** The memory of one upstream: this page's copy, written through to storage (unless the upstream is unknown). */
function memoryOf(upstream: string): PathMemory {
  let memory = memories.get(upstream);
  if (memory) return memory;
  const choices: Record<string, string> = upstream === UNKNOWN ? {} : { ...readStored()[upstream] };
  const save = () => upstream !== UNKNOWN && writeStored(upstream, choices);
  memory = {
    get: (id) => choices[id],
    set: (id, path) => {
      choices[id] = path;
      save();
    },
    delete: (id) => {
      if (!(id in choices)) return;
      delete choices[id];
      save();
    },
  };
  memories.set(upstream, memory);
  return memory;
}

/**
 * The upstream's identity from `/console/config`: an explicit `upstream_id` when the server gives one, else its
 * mode, its address (or "embedded sandbox") and the sandbox's shape when named.
 */
export function upstreamIdentity(config: unknown): string {
  if (!config || typeof config !== 'object') return UNKNOWN;
  const c = config as Record<string, unknown>;
  if (typeof c.upstream_id === 'string' && c.upstream_id) return c.upstream_id;
  const parts = [c.mode, c.upstream, c.sandbox_shape].filter((p) => typeof p === 'string' && p !== '');
  return parts.length > 0 ? parts.join(' · ') : UNKNOWN;
}

let identity: Promise<string> | undefined;

/** Read once per page; a failed read is tried again at the next call that needs it. */
function currentUpstream(): Promise<string> {
  return (identity ??= request<unknown>('GET', '/console/config', { operationId: 'console.config' }).then(
    upstreamIdentity,
    () => {
      identity = undefined;
      return UNKNOWN;
    },
  ));
}

// Started with the module: by the time a call needs it, the answer is usually in.
void currentUpstream().catch(() => undefined);

type Attempt<T> = { status: number; value: T; error?: undefined } | { status: number; error: ApiError };

/**
 * Calls one API operation at the path its upstream serves. `send(template)` makes the request at one path
 * template. `notServed` is the 404/405 the operation's own path already answered, when the client tried it
 * before loading this module: it is not asked again.
 */
export async function callServed<T>(
  id: string,
  path: string,
  send: (template: string) => Promise<T>,
  notServed?: ApiError,
): Promise<T> {
  const alternates = ALTERNATES[id];
  if (!alternates || alternates.length === 0) {
    if (notServed) throw notServed;
    return send(path);
  }
  const upstream = memoryOf(await currentUpstream());
  // The operation's own path is where calls go anyway: remembering it is forgetting any other choice.
  const memory: PathMemory = {
    get: upstream.get,
    set: (op, served) => (served === path ? upstream.delete(op) : upstream.set(op, served)),
    delete: upstream.delete,
  };
  const { result } = await callAtServedPath<Attempt<T>>({ id, path, alternates }, memory, async (template) => {
    if (notServed && template === path) return { status: notServed.status, error: notServed };
    try {
      return { status: 200, value: await send(template) };
    } catch (error) {
      // An answer (any status) says something about the path; no answer (network, abort) says nothing.
      if (isApiError(error) && !error.isNetwork) return { status: error.status, error };
      throw error;
    }
  });
  if (result.error) throw result.error;
  return result.value;
}

/** For tests: forget this page's memory and the upstream's identity (storage is left as it is). */
export function resetServedPathsForTests(): void {
  memories.clear();
  identity = undefined;
}
