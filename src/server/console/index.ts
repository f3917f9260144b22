/** The console server's own endpoints under `/console/*`: health, configuration status, safe bulk operations. */
import { Hono } from 'hono';
import type { Db } from '../../node/db';
import { accessModeOf } from '../access';
import type { Config } from '../config';
import { compressLargeJson } from './compress';
import { gitPermissionHandlers } from './git-permissions';
import { mountConsoleOperations } from './mount';
import type { Redactor } from '../redact';
import { problemResponse } from '../../node/problem-writer';
import { consoleErrorResponse } from './problems';
import type { UpstreamClient } from './upstream-client';

export interface ConsoleDeps {
  config: Config;
  upstream: UpstreamClient;
  /** Where the proxy sends API calls (the sandbox's loopback URL in sandbox mode). */
  upstreamUrl: string;
  startedAt: number;
  /** The console's own store (console.db). */
  db: Db;
  /** Removes the credential from every answer, stored error and log line. */
  redactor: Redactor;
}

export function createConsoleApp(deps: ConsoleDeps): Hono {
  const app = new Hono();
  app.use(compressLargeJson());
  mountConsoleOperations(app, {
    'console.health': () => ({ status: 'ok', uptime_s: Math.round((Date.now() - deps.startedAt) / 1000) }),
    'console.config': () => ({
      mode: deps.config.mode,
      sandbox: deps.config.mode === 'sandbox',
      upstream: deps.config.mode === 'sandbox' ? 'embedded sandbox' : String(deps.config.baseUrl),
      api_base: '/api',
      // 'link': one-time sign-in links; 'token': links and CONSOLE_ACCESS_TOKEN; 'off': CONSOLE_AUTH=off.
      access_control: accessModeOf(deps.config),
    }),
    ...gitPermissionHandlers({
      ...deps,
      retention: { maxRevisions: deps.config.historyMaxRevisions, maxAgeDays: deps.config.historyMaxAgeDays },
    }),
  });

  app.onError((err, c) => consoleErrorResponse(c, err, deps.redactor, 'handling this request'));
  app.notFound((c) =>
    problemResponse(404, `No console endpoint at ${c.req.method} ${c.req.path}`, { instance: c.req.path }),
  );
  return app;
}
