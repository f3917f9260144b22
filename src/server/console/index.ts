/** The console server's own endpoints under `/console/*`: health, configuration status, safe bulk operations. */
import { Hono } from 'hono';
import { problem, PROBLEM_CONTENT_TYPE } from '../../api/problem';
import type { Db } from '../sandbox/db';
import type { Config } from '../config';
import { gitPermissionRoutes } from './git-permissions';
import type { UpstreamClient } from './upstream-client';
import { UpstreamProblem } from './upstream-client';

export interface ConsoleDeps {
  config: Config;
  upstream: UpstreamClient;
  /** Where the proxy sends API calls (the sandbox's loopback URL in sandbox mode). */
  upstreamUrl: string;
  startedAt: number;
  /** The console's own store (console.db). */
  db: Db;
}

export function createConsoleApp(deps: ConsoleDeps): Hono {
  const app = new Hono();
  app.get('/console/health', (c) =>
    c.json({ status: 'ok', uptime_s: Math.round((Date.now() - deps.startedAt) / 1000) }, 200, {
      'cache-control': 'no-store',
    }),
  );
  app.get('/console/config', (c) =>
    c.json(
      {
        mode: deps.config.mode,
        sandbox: deps.config.mode === 'sandbox',
        upstream: deps.config.mode === 'sandbox' ? 'embedded sandbox' : deps.config.baseUrl,
        api_base: '/api',
        access_control: deps.config.accessToken !== undefined,
      },
      200,
      { 'cache-control': 'no-store' },
    ),
  );

  // Console features mount their endpoints here, e.g. app.route('/console/...', routes(deps)).
  app.route('/', gitPermissionRoutes(deps));

  app.onError((err, c) => {
    if (err instanceof UpstreamProblem) {
      return new Response(JSON.stringify({ ...err.body, instance: c.req.path }), {
        status: err.status,
        headers: { 'content-type': PROBLEM_CONTENT_TYPE, ...err.headers },
      });
    }
    console.error('[console] unhandled error:', err instanceof Error ? err.message : 'unknown error');
    return new Response(
      JSON.stringify(problem(500, 'The console server failed while handling this request', { instance: c.req.path })),
      {
        status: 500,
        headers: { 'content-type': PROBLEM_CONTENT_TYPE },
      },
    );
  });
  app.notFound(
    (c) =>
      new Response(
        JSON.stringify(problem(404, `No console endpoint at ${c.req.method} ${c.req.path}`, { instance: c.req.path })),
        {
          status: 404,
          headers: { 'content-type': PROBLEM_CONTENT_TYPE },
        },
      ),
  );
  return app;
}
