/**
 * Mounts the console's operation table (`src/api/console`) on its Hono app with the shared table mount
 * (`src/node/table-mount.ts`, the sandbox's too): routing, 405, path (404), query and body validation (422 with
 * `errors`, bounded) and the handler call come from the table; handlers only do the operation's own work. The
 * console's guards (sign-in, same-origin, JSON bodies) stand in front of it; what a handler throws goes to the
 * app's error handler, which redacts it.
 */
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { consoleOperationList, type ConsoleOperationId, type ConsoleOperations } from '../../api/console';
import type { ConsoleOperationDef } from '../../api/console/define';
import { HttpProblem } from '../../node/problem-writer';
import { mountTable, type MountedHandler } from '../../node/table-mount';
import { CONSOLE_MAX_BODY_BYTES } from './problems';

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

/** Any console handler, as the mount calls it with the input its operation's schemas produced. */
type WideConsoleHandler = (input: {
  params: unknown;
  query: unknown;
  body: unknown;
  signal: AbortSignal;
  c: Context;
}) => unknown;

/** The handler of `op`, called with the console's input (its parsed parts, the abort signal, the context). */
function consoleHandlerOf(handlers: ConsoleHandlers, op: ConsoleOperationDef): MountedHandler<null> | undefined {
  // Typed per operation from the same schemas the mount validates with: widening it here is sound.
  const handler = handlers[op.id as ConsoleOperationId] as WideConsoleHandler | undefined;
  if (!handler) return undefined;
  return ({ params, query, body, c }) => handler({ params, query, body, signal: c.req.raw.signal, c });
}

export function mountConsoleOperations(app: Hono, handlers: ConsoleHandlers): void {
  mountTable<ConsoleOperationDef, null, null>(app, {
    operations: consoleOperationList,
    server: 'the console server',
    handlerOf: (op) => consoleHandlerOf(handlers, op),
    servedAt: (op) => [{ path: op.path, at: null }],
    maxBodyBytes: CONSOLE_MAX_BODY_BYTES,
    // Sign-in and the same-origin and body-type rules are checked before a request reaches the table.
    guard: () => ({ guarded: null }),
    answer: (c, op, result) => {
      if (result instanceof Response) return result;
      if (op.status === 204 || result === undefined) return c.body(null, 204);
      return c.json(result as object, op.status ?? 200, { 'cache-control': 'no-store' });
    },
    // The app's error handler writes it, redacted (`consoleErrorResponse`).
    onError: (_c, _op, err) => {
      throw err;
    },
    problem: (_c, status, detail, headers) => {
      throw new HttpProblem(status, detail, {}, headers);
    },
  });
}
