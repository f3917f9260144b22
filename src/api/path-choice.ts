/**
 * Which of an operation's paths the upstream serves. The spec and the vendor's real service sometimes name one
 * operation differently (`acu-limits/agent` vs `acu-limits/devin`, `/v3beta1/` promoted to `/v3/`): the operation
 * lists its `alternates`. A caller tries the remembered path first, else the operation's own path, then each
 * alternate, and moves on only when the answer is 404 or 405 on the path itself, whatever the body says (a generic
 * mock, the sandbox and the real service word "no such route" differently). The first path that answers anything
 * else is remembered for that operation. Used by the browser client and the doctor; each keeps its own memory per
 * upstream. No fetch here: the caller's `attempt` makes the request.
 */

/** Where a caller keeps what it learned: per upstream, by operation id. */
export interface PathMemory {
  get(operationId: string): string | undefined;
  set(operationId: string, path: string): void;
  delete(operationId: string): void;
}

/** An in-memory PathMemory (the doctor's, and the browser's when storage is unavailable). */
export function memoryPathMemory(): PathMemory & { entries(): Array<[string, string]> } {
  const map = new Map<string, string>();
  return {
    get: (id) => map.get(id),
    set: (id, path) => void map.set(id, path),
    delete: (id) => void map.delete(id),
    entries: () => [...map.entries()],
  };
}

/** The paths of one operation in the order to try them: the remembered one, the operation's own, the alternates. */
export function candidatePaths(
  op: { readonly path: string; readonly alternates?: readonly string[] },
  remembered?: string,
): string[] {
  const all = [op.path, ...(op.alternates ?? [])];
  if (remembered && all.includes(remembered)) return [remembered, ...all.filter((p) => p !== remembered)];
  return all;
}

/** True when an answer says the upstream does not serve this path (for this method): try the next one. */
export function isNotServed(status: number): boolean {
  return status === 404 || status === 405;
}

export interface PathChoice<R> {
  /** The answer to return: the first that was not "not served", else the first path's (its 404 says why). */
  result: R;
  /** The path template that gave `result`. */
  path: string;
  /** Paths tried, in order, with their statuses. */
  tried: Array<{ path: string; status: number }>;
}

/**
 * Calls an operation at the first of its paths the upstream serves. `attempt(template)` makes the request at
 * one path template and resolves with something carrying its HTTP status. When every path answers 404/405 the
 * first answer is returned (and nothing is remembered): a resource that does not exist reads as 404 as before.
 */
export async function callAtServedPath<R extends { status: number }>(
  op: { readonly id: string; readonly path: string; readonly alternates?: readonly string[] },
  memory: PathMemory | undefined,
  attempt: (pathTemplate: string) => Promise<R>,
): Promise<PathChoice<R>> {
  const remembered = memory?.get(op.id);
  const paths = candidatePaths(op, remembered);
  const tried: Array<{ path: string; status: number }> = [];
  let first: { result: R; path: string } | undefined;
  for (const path of paths) {
    const result = await attempt(path);
    tried.push({ path, status: result.status });
    if (!isNotServed(result.status)) {
      // A server error says nothing about the route: remember only a definite answer.
      if (result.status < 500 && memory && path !== remembered) memory.set(op.id, path);
      return { result, path, tried };
    }
    first ??= { result, path };
    if (paths.length === 1) break;
  }
  return { ...first!, tried };
}
