/** The console server's own health and configuration status (`/console/health`, `/console/config`). */
import { z } from 'zod';
import { defineConsoleOperations } from './define';

/** The console's own store as /console/health reports it (never its address or password). */
export const ConsoleStoreHealth = z.looseObject({
  kind: z.enum(['sqlite', 'postgres']),
  state: z.enum(['ok', 'unavailable']),
  /** Unix seconds since the store is unreachable; null while it answers. */
  unavailable_since: z.number().int().nullable(),
  error: z.string().nullable(),
  /** Schema migrations applied. */
  migrations: z.number().int(),
});

/**
 * 200 while the console and its store answer; 503 (a problem body carrying `store`) while the store cannot be
 * reached, so a load balancer takes the replica out until it recovers by itself.
 */
export const ConsoleHealth = z.looseObject({
  status: z.literal('ok'),
  uptime_s: z.number().int(),
  store: ConsoleStoreHealth.optional(),
});
export type ConsoleHealth = z.infer<typeof ConsoleHealth>;

/** How people sign in: one-time links, links and CONSOLE_ACCESS_TOKEN, or not at all (CONSOLE_AUTH=off). */
export const ACCESS_CONTROL_MODES = ['link', 'token', 'off'] as const;

export const ConsoleConfig = z.looseObject({
  /** `sandbox`: the embedded sandbox answers; `upstream`: a real API. */
  mode: z.enum(['sandbox', 'upstream']),
  sandbox: z.boolean(),
  /** "embedded sandbox", or the API's base URL. */
  upstream: z.string(),
  api_base: z.string(),
  access_control: z.enum(ACCESS_CONTROL_MODES),
  /**
   * An opaque identity of the upstream (mode, base URL and sandbox shape, hashed): what the browser keys what it
   * learned about the upstream by, such as which of an operation's paths it serves.
   */
  upstream_id: z.string().optional(),
  /** The embedded sandbox's shape (`spec` or `vendor`); absent with a real upstream. */
  sandbox_shape: z.enum(['spec', 'vendor']).optional(),
});
export type ConsoleConfig = z.infer<typeof ConsoleConfig>;

export const consoleSystemOperations = defineConsoleOperations({
  'console.health': {
    id: 'console.health',
    method: 'GET',
    permission: null,
    path: '/console/health',
    summary: 'Whether the console server is up (open without a session)',
    response: ConsoleHealth,
  },
  'console.config': {
    id: 'console.config',
    method: 'GET',
    permission: null,
    path: '/console/config',
    summary: 'Which API the console talks to and how people sign in (never the credential)',
    response: ConsoleConfig,
  },
});
