/** The console server's own endpoints under `/console/*`: health, configuration status, safe bulk operations. */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { accessModeOf } from '../access';
import type { Config } from '../config';
import { compressLargeJson } from './compress';
import { redactAnswers } from './redact-answers';
import { doctorHandlers } from './doctor';
import { gitPermissionHandlers } from './git-permissions';
import { egressUnknownOf, enterpriseNameOf, ipAccessListHandlers, protectedAddressesOf } from './ip-access-list';
import { mountConsoleOperations } from './mount';
import { alertHandlers } from './alerts';
import { settingsHistoryHandlers } from './settings-history';
import type { Redactor } from '../redact';
import { HttpProblem, problemResponse } from '../../node/problem-writer';
import type { ConsoleStore } from './storage/console-store';
import { consoleErrorResponse } from './problems';
import { activityHandlers } from './activity/handlers';
import { configurationHandlers } from './configuration';
import type { UpstreamClient } from './upstream-client';
import { capacitySampleHandlers } from './capacity-samples';
import { principalConsumptionHandlers } from './principal-consumption';

export interface ConsoleDeps {
  config: Config;
  upstream: UpstreamClient;
  /** Where the proxy sends API calls (the sandbox's loopback URL in sandbox mode). */
  upstreamUrl: string;
  startedAt: number;
  /** The console's own store: SQLite in DATA_DIR, or PostgreSQL (DATABASE_URL) shared by replicas. */
  store: ConsoleStore;
  /** Removes the credential from every answer (any status), the history as stored and log lines. */
  redactor: Redactor;
  /** The credential the proxy adds (the doctor checks it); never answered. */
  apiKey?: string;
}

export function createConsoleApp(deps: ConsoleDeps): Hono {
  const app = new Hono();
  app.use(compressLargeJson());
  // Inside the compression: every answer (success, problem, not found) is redacted before it is packed.
  app.use(redactAnswers(deps.redactor));
  mountConsoleOperations(app, {
    'console.health': async () => {
      const uptime_s = Math.round((Date.now() - deps.startedAt) / 1000);
      const store = await deps.store.health();
      if (store.state !== 'ok') {
        // A load balancer's health check takes this replica out until its store is back.
        throw new HttpProblem(
          503,
          `The console's store (${store.kind === 'postgres' ? 'PostgreSQL' : 'SQLite'}) cannot be reached: ${store.error ?? 'unknown error'}. Sign-in, history and guarded changes answer 503 until it is back.`,
          { status_text: 'unavailable', uptime_s, store },
          { 'retry-after': '5' },
        );
      }
      return { status: 'ok', uptime_s, store };
    },
    'console.config': () => ({
      mode: deps.config.mode,
      sandbox: deps.config.mode === 'sandbox',
      upstream: deps.config.mode === 'sandbox' ? 'embedded sandbox' : String(deps.config.baseUrl),
      api_base: '/api',
      // 'link': one-time sign-in links; 'token': links and CONSOLE_ACCESS_TOKEN; 'off': CONSOLE_AUTH=off.
      access_control: accessModeOf(deps.config),
      upstream_id: upstreamIdOf(deps.config),
      ...(deps.config.mode === 'sandbox' ? { sandbox_shape: deps.config.sandboxShape } : {}),
    }),
    ...gitPermissionHandlers(deps),
    ...ipAccessListHandlers({
      upstream: deps.upstream,
      redactor: deps.redactor,
      store: deps.store.ipAccessList,
      protectedAddresses: protectedAddressesOf(deps.config),
      enterpriseName: enterpriseNameOf(deps.config),
      egressUnknown: egressUnknownOf(deps.config),
    }),
    ...settingsHistoryHandlers({
      upstream: deps.upstream,
      redactor: deps.redactor,
      store: deps.store.settingsHistory,
    }),
    ...capacitySampleHandlers({
      config: deps.config,
      store: deps.store.capacitySamples,
      upstream: deps.upstream,
      closed: () => deps.store.sqlite?.open === false || deps.store.postgres?.pool.ended === true,
    }),
    ...doctorHandlers({
      config: deps.config,
      upstreamUrl: deps.upstreamUrl,
      apiKey: deps.apiKey,
      settings: deps.store.settings,
      redactor: deps.redactor,
    }),
    ...activityHandlers(deps.store.activity),
    ...configurationHandlers(deps),
    ...principalConsumptionHandlers({ upstream: deps.upstream }),
    ...alertHandlers({
      config: deps.config,
      store: deps.store.alerts,
      settings: deps.store.settings,
      upstream: deps.upstream,
      redactor: deps.redactor,
    }),
  });

  app.onError((err, c) => consoleErrorResponse(c, err, deps.redactor, 'handling this request'));
  app.notFound((c) =>
    problemResponse(404, `No console endpoint at ${c.req.method} ${c.req.path}`, { instance: c.req.path }),
  );
  return app;
}

/** An opaque, stable identity of the upstream: the same API and shape give the same id, another gives another. */
function upstreamIdOf(config: Config): string {
  const what =
    config.mode === 'sandbox' ? `sandbox:${config.sandboxShape}` : `upstream:${String(config.baseUrl).toLowerCase()}`;
  return createHash('sha256').update(what).digest('hex').slice(0, 16);
}
