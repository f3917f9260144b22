/**
 * The console's own endpoints on the shared table mount: an empty body is an absent body, as in the sandbox
 * (`src/sandbox/dispatcher.test.ts`): 422 "missing" where the operation takes a body, never read as {} with
 * defaults nobody chose.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { consoleOperationList, type ConsoleOperationId } from '../../api/console';
import { HttpProblem, httpProblemResponse } from '../../node/problem-writer';
import { MISSING_BODY_ERROR } from '../../node/table-mount';
import { mountConsoleOperations, type ConsoleHandlers } from './mount';

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('the console reads an empty body as the sandbox does', () => {
  /** The console's table with a handler that echoes what it was called with. */
  function consoleApp() {
    const a = new Hono();
    const handlers: ConsoleHandlers = {};
    const echo = ({ body }: { body: unknown }) => ({ echoed: body ?? null });
    for (const op of consoleOperationList) Object.assign(handlers, { [op.id as ConsoleOperationId]: echo });
    mountConsoleOperations(a, handlers);
    a.onError((err, c) =>
      err instanceof HttpProblem ? httpProblemResponse(err, c.req.path) : c.text('unexpected', 500),
    );
    return a;
  }

  it('the console answers 422 "missing" to an empty body where its schema takes {} (no defaults applied)', async () => {
    // `set` has a default: read as {} the empty body would restore a set nobody chose.
    const res = await consoleApp().request('/console/settings/history/1/restore', { method: 'POST' });
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual([MISSING_BODY_ERROR]);
    const explicit = await consoleApp().request('/console/settings/history/1/restore', json({}));
    expect(await explicit.json()).toEqual({ echoed: { set: 'before' } });
  });
});
