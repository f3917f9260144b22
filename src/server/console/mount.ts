/**
 * Mounts the console's operation table (`src/api/console`) on its Hono app: routing, path (404), query and
 * body validation (422 with `errors`, bounded) and problem bodies come from the table, as the sandbox's
 * dispatcher does for the API's; handlers only do the operation's own work.
 */
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { consoleOperationList, type ConsoleOperationId, type ConsoleOperations } from '../../api/console';
import { capFieldErrors, issuesToFieldErrors } from '../../api/problem';
import { HttpProblem, summarizeFieldErrors } from '../../node/problem-writer';
import { readConsoleBody } from './problems';

type Out<T> = T extends z.ZodType ? z.output<T> : undefined;

export interface ConsoleInput<I extends ConsoleOperationId> {
  params: Out<ConsoleOperations[I] extends { params: infer P } ? P : undefined>;
  query: Out<ConsoleOperations[I] extends { query: infer Q } ? Q : undefined>;
  body: Out<ConsoleOperations[I] extends { body: infer B } ? B : undefined>;
  /** Aborted when the browser goes away. */
  signal: AbortSignal;
  c: Context;
}

export type ConsoleResult<I extends ConsoleOperationId> = ConsoleOperations[I] extends { response: infer R }
  ? z.input<R & z.ZodType>
  : unknown;

export type ConsoleHandler<I extends ConsoleOperationId> = (
  input: ConsoleInput<I>,
) => ConsoleResult<I> | Promise<ConsoleResult<I>>;

export type ConsoleHandlers = { [I in ConsoleOperationId]?: ConsoleHandler<I> };

const honoPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** Query parameters as zod sees them: one value → string, repeated keys → array. */
function readQuery(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const all = url.searchParams.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

export function mountConsoleOperations(app: Hono, handlers: ConsoleHandlers): void {
  const methodsByPath = new Map<string, string[]>();
  for (const op of consoleOperationList) {
    const handler = handlers[op.id as ConsoleOperationId] as ConsoleHandler<ConsoleOperationId> | undefined;
    if (!handler) throw new Error(`the console server has no handler for ${op.id}`);
    app.on(op.method, honoPath(op.path), async (c) => {
      let params: unknown = {};
      if (op.params) {
        const r = op.params.safeParse(c.req.param());
        if (!r.success) {
          const first = r.error.issues[0];
          throw new HttpProblem(404, `Nothing at ${c.req.path}: ${first?.message ?? 'unknown path'}`);
        }
        params = r.data;
      }
      let query: unknown = {};
      if (op.query) {
        const r = op.query.safeParse(readQuery(new URL(c.req.url)));
        if (!r.success) {
          const errors = capFieldErrors(issuesToFieldErrors('query', r.error.issues), 'query');
          throw new HttpProblem(422, summarizeFieldErrors(errors), { errors });
        }
        query = r.data;
      }
      const body: unknown = op.body ? await readConsoleBody(c, op.body) : undefined;
      const result = await handler({ params, query, body, signal: c.req.raw.signal, c } as never);
      if (result instanceof Response) return result;
      if (op.status === 204 || result === undefined) return c.body(null, 204);
      return c.json(result as object, op.status ?? 200, { 'cache-control': 'no-store' });
    });
    const list = methodsByPath.get(op.path) ?? [];
    list.push(op.method);
    methodsByPath.set(op.path, list);
  }
  for (const [path, methods] of methodsByPath) {
    app.all(honoPath(path), (c) => {
      const allow = methods.join(', ');
      throw new HttpProblem(405, `${c.req.method} is not allowed on ${c.req.path}; allowed: ${allow}`, {}, { allow });
    });
  }
}
