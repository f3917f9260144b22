/**
 * The console server's configuration: the environment, then `.env` for what the environment leaves unset.
 * Validated at start; every problem is reported as one clear line and the start is refused.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { formatIpAddress, isIpRange, parseIpAddress } from '../api/ip-ranges';
import { DEFAULT_SANDBOX_PORT, envReader } from '../node/env';
import { readSandboxShape, type SandboxShape } from '../node/sandbox-shape';
import { readAccessSettings, type AccessSettings } from './oidc/config';

/** Single sign-on, the policy file and the activity's retention are `AccessSettings` (see oidc/config.ts). */
export interface Config extends AccessSettings {
  /** `sandbox`: no credential configured, the embedded sandbox answers. `upstream`: a real API. */
  mode: 'sandbox' | 'upstream';
  /** Set in upstream mode; in sandbox mode the sandbox's admin credential is used. */
  apiKey: string | undefined;
  baseUrl: string | undefined;
  host: string;
  port: number;
  dataDir: string;
  /** 0 = any free loopback port. */
  sandboxPort: number;
  /** SANDBOX_PORT was set: a busy port is an error rather than a reason to pick another. */
  sandboxPortExplicit: boolean;
  sandboxRateLimit: number | undefined;
  sandboxTickMs: number | undefined;
  /** `SANDBOX_SHAPE`: the embedded sandbox answers in the contract's shapes (`spec`) or exactly the vendor's. */
  sandboxShape: SandboxShape;
  upstreamTimeoutMs: number;
  maxUpstreamConnections: number;
  /** Extra host names the console answers to (besides loopback names). */
  allowedHosts: string[];
  /** Required when serving on a non-loopback HOST. */
  accessToken: string | undefined;
  /** `off` (CONSOLE_AUTH=off, loopback only): no sign-in at all. `on`: sessions required (the default). */
  consoleAuth: 'on' | 'off';
  /** TLS_CERT_FILE and TLS_KEY_FILE: serve HTTPS. Both or neither. */
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  /** Sign-in sessions end after this long without a request (CONSOLE_SESSION_IDLE_MINUTES). */
  sessionIdleMinutes: number;
  /** ... and after this long in any case (CONSOLE_SESSION_MAX_HOURS). */
  sessionMaxHours: number;
  /** History retention per organization and set: at most this many revisions (CONSOLE_HISTORY_MAX_REVISIONS). */
  historyMaxRevisions: number;
  /** ... and none older than this (CONSOLE_HISTORY_MAX_AGE_DAYS); the latest revision is always kept. */
  historyMaxAgeDays: number;
  /** Most upstream connections one client (a sign-in session, or an address) may hold at once. */
  maxUpstreamPerClient: number;
  /**
   * DATABASE_URL (`postgres://…`): the console's own store (sessions, history, locks, settings) in PostgreSQL,
   * shared by several replicas. Unset: SQLite in DATA_DIR. Never logged (it may hold a password).
   */
  databaseUrl: string | undefined;
  /**
   * CONSOLE_EGRESS_IPS: the addresses the console reaches the API from (comma-separated IPv4/IPv6 addresses).
   * The IP access list screen refuses a list that no longer admits one of them (plus loopback with the sandbox).
   */
  consoleEgressIps: string[];
  /** CONSOLE_ENTERPRISE_NAME: what an admin types to apply an IP access list that locks the console out. */
  enterpriseName: string | undefined;
  /** DATABASE_POOL_SIZE: most PostgreSQL connections this replica opens (default 10). */
  databasePoolSize?: number;
  /** CONSOLE_MAX_GUARDED_CHANGES: guarded changes this replica runs at once (default 4); the rest queue. */
  maxGuardedChanges?: number;
  /** CONSOLE_GUARDED_CHANGES_QUEUE: guarded changes that may wait for a slot (default 100); past it, 503. */
  guardedChangesQueue?: number;
  /** CONSOLE_RECONCILE_INTERVAL_S: how often revisions left `applying` are looked for (default 15 s). */
  reconcileIntervalS?: number;
  /** CAPACITY_SAMPLE_INTERVAL_S: how often the queue and hypervisors are sampled (default 300 s; 0 = off). */
  capacitySampleIntervalS?: number;
  /** CONSOLE_ALERTS_INTERVAL_S: how often alert rules are evaluated (default 60 s; 0 = only on "Check now"). */
  alertsIntervalS?: number;
  /**
   * CONSOLE_ALERTS_ALLOW_PRIVATE_TARGETS: comma-separated ranges (CIDR or address) and host names a webhook may
   * reach although they are loopback or private; none by default, so a webhook cannot probe the network.
   */
  alertsAllowPrivateTargets?: string[];
  /** CONSOLE_ALERTS_RETRY_BASE_MS: the first webhook retry's delay; each next one doubles (default 30 s). */
  alertsRetryBaseMs?: number;
}

/** Connections a guarded change may hold at once (its history and its lease's renewal), for the pool check. */
export const CONNECTIONS_PER_GUARDED_CHANGE = 2;
/** Connections kept for everything else (sessions, history reads, readiness) at the smallest pool. */
export const CONNECTIONS_BESIDE_GUARDED_CHANGES = 2;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
export const isLoopbackHost = (host: string) => LOOPBACK_HOSTS.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

/** CONSOLE_EGRESS_IPS: comma-separated addresses (not ranges), each once, in canonical text. */
function egressIps(raw: string | undefined, problems: string[]): string[] {
  const out: string[] = [];
  for (const item of (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const parsed = parseIpAddress(item);
    if (!parsed) {
      problems.push(
        `CONSOLE_EGRESS_IPS must be comma-separated IPv4 or IPv6 addresses (no ranges), the addresses the console reaches the API from; "${item.slice(0, 80)}" is not one`,
      );
      continue;
    }
    const text = formatIpAddress(parsed);
    if (!out.includes(text)) out.push(text);
  }
  if (out.length > 100) problems.push(`CONSOLE_EGRESS_IPS holds at most 100 addresses (got ${out.length})`);
  return out;
}

function enterpriseName(raw: string | undefined, problems: string[]): string | undefined {
  if (raw !== undefined && raw.length > 200) problems.push('CONSOLE_ENTERPRISE_NAME must be at most 200 characters');
  return raw;
}

/** DATABASE_URL: a postgres:// URL, or unset. The value is never repeated in a message (it may hold a password). */
function databaseUrl(raw: string | undefined, problems: string[]): string | undefined {
  if (raw === undefined) return undefined;
  let ok: boolean;
  try {
    const u = new URL(raw);
    const postgres = u.protocol === 'postgres:' || u.protocol === 'postgresql:';
    ok = postgres && (u.hostname !== '' || u.searchParams.has('host'));
  } catch {
    ok = false;
  }
  if (!ok) {
    problems.push(
      'DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@host:5432/console (or unset it to keep the store in SQLite in DATA_DIR)',
    );
    return undefined;
  }
  return raw;
}

export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  opts: { dotEnv?: Record<string, string> } = {},
): Config {
  const { get, int, problems } = envReader(env, opts.dotEnv);
  const apiKey = get('AGENT_PLATFORM_API_KEY');
  const baseUrl = get('AGENT_PLATFORM_BASE_URL');
  {
    if (apiKey && !baseUrl) {
      problems.push(
        'AGENT_PLATFORM_BASE_URL is missing: set it with AGENT_PLATFORM_API_KEY, or unset both to use the sandbox',
      );
    }
    if (baseUrl && !apiKey) {
      problems.push(
        'AGENT_PLATFORM_API_KEY is missing: set it with AGENT_PLATFORM_BASE_URL, or unset both to use the sandbox',
      );
    }
    if (apiKey && !apiKey.startsWith('cog_')) {
      problems.push('AGENT_PLATFORM_API_KEY must be a service-user credential starting with "cog_"');
    }
    if (baseUrl) {
      let url: URL | null;
      try {
        const u = new URL(baseUrl);
        url = (u.protocol === 'https:' || u.protocol === 'http:') && !u.search && !u.hash && !u.username ? u : null;
      } catch {
        url = null;
      }
      if (!url)
        problems.push(`AGENT_PLATFORM_BASE_URL must be an http(s) URL without query or credentials (got "${baseUrl}")`);
      else if (url.protocol === 'http:' && !isLoopbackHost(url.hostname.toLowerCase())) {
        // The proxy adds the credential to every call: over plain HTTP it would cross the network in clear.
        problems.push(
          `AGENT_PLATFORM_BASE_URL must use https:// for ${url.host}: plain http:// would send the credential in clear (http:// is accepted for loopback only: 127.0.0.0/8, ::1, localhost)`,
        );
      }
    }
  }

  const host = get('HOST') ?? '127.0.0.1';
  const accessToken = get('CONSOLE_ACCESS_TOKEN');
  if (!isLoopbackHost(host) && !accessToken) {
    problems.push(
      `HOST=${host} serves the console beyond this machine: set CONSOLE_ACCESS_TOKEN so only people with it can sign in`,
    );
  }
  if (accessToken && accessToken.length < 16) {
    problems.push('CONSOLE_ACCESS_TOKEN must be at least 16 characters');
  }
  const authRaw = (get('CONSOLE_AUTH') ?? 'on').toLowerCase();
  if (authRaw !== 'on' && authRaw !== 'off') {
    problems.push(`CONSOLE_AUTH must be "on" or "off" (got "${authRaw}")`);
  } else if (authRaw === 'off' && !isLoopbackHost(host)) {
    problems.push(
      `CONSOLE_AUTH=off is allowed on a loopback HOST only (HOST=${host}): anyone who can reach it would use the credential`,
    );
  }
  const tlsCertFile = get('TLS_CERT_FILE');
  const tlsKeyFile = get('TLS_KEY_FILE');
  if (!!tlsCertFile !== !!tlsKeyFile) {
    problems.push(
      `${tlsCertFile ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'} is missing: set TLS_CERT_FILE and TLS_KEY_FILE together, or neither`,
    );
  }
  for (const [name, file] of [
    ['TLS_CERT_FILE', tlsCertFile],
    ['TLS_KEY_FILE', tlsKeyFile],
  ] as const) {
    if (file && !existsSync(resolve(file))) problems.push(`${name}=${file} does not exist`);
  }

  const config: Config = {
    mode: apiKey && baseUrl ? 'upstream' : 'sandbox',
    apiKey: apiKey && baseUrl ? apiKey : undefined,
    baseUrl: apiKey && baseUrl ? baseUrl.replace(/\/+$/, '') : undefined,
    host,
    port: int('PORT', 8080, 0, 65535),
    dataDir: resolve(get('DATA_DIR') ?? 'data'),
    sandboxPort: int('SANDBOX_PORT', DEFAULT_SANDBOX_PORT, 0, 65535),
    sandboxPortExplicit: get('SANDBOX_PORT') !== undefined,
    sandboxRateLimit: get('SANDBOX_RATE_LIMIT') === undefined ? undefined : int('SANDBOX_RATE_LIMIT', 0, 0, 10_000_000),
    sandboxTickMs: get('SANDBOX_TICK_MS') === undefined ? undefined : int('SANDBOX_TICK_MS', 1000, 1, 600_000),
    sandboxShape: readSandboxShape({ get, problems }),
    upstreamTimeoutMs: int('UPSTREAM_TIMEOUT_MS', 30_000, 100, 600_000),
    maxUpstreamConnections: int('MAX_UPSTREAM_CONNECTIONS', 64, 1, 10_000),
    allowedHosts: (get('ALLOWED_HOSTS') ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    accessToken,
    consoleAuth: authRaw === 'off' ? 'off' : 'on',
    tlsCertFile: tlsCertFile ? resolve(tlsCertFile) : undefined,
    tlsKeyFile: tlsKeyFile ? resolve(tlsKeyFile) : undefined,
    sessionIdleMinutes: int('CONSOLE_SESSION_IDLE_MINUTES', 120, 1, 43_200),
    sessionMaxHours: int('CONSOLE_SESSION_MAX_HOURS', 12, 1, 720),
    historyMaxRevisions: int('CONSOLE_HISTORY_MAX_REVISIONS', 200, 1, 100_000),
    historyMaxAgeDays: int('CONSOLE_HISTORY_MAX_AGE_DAYS', 180, 1, 36_500),
    maxUpstreamPerClient: int('MAX_UPSTREAM_PER_CLIENT', 16, 1, 10_000),
    databaseUrl: databaseUrl(get('DATABASE_URL'), problems),
    consoleEgressIps: egressIps(get('CONSOLE_EGRESS_IPS'), problems),
    enterpriseName: enterpriseName(get('CONSOLE_ENTERPRISE_NAME'), problems),
    databasePoolSize: int('DATABASE_POOL_SIZE', 10, 2, 1_000),
    maxGuardedChanges: int('CONSOLE_MAX_GUARDED_CHANGES', 4, 1, 1_000),
    guardedChangesQueue: int('CONSOLE_GUARDED_CHANGES_QUEUE', 100, 0, 100_000),
    reconcileIntervalS: int('CONSOLE_RECONCILE_INTERVAL_S', 15, 1, 3_600),
    capacitySampleIntervalS: capacitySampleInterval(int('CAPACITY_SAMPLE_INTERVAL_S', 300, 0, 86_400), problems),
    ...readAccessSettings(get, problems),
    alertsIntervalS: int('CONSOLE_ALERTS_INTERVAL_S', 60, 0, 86_400),
    alertsAllowPrivateTargets: alertTargets(get('CONSOLE_ALERTS_ALLOW_PRIVATE_TARGETS'), problems),
    alertsRetryBaseMs: int('CONSOLE_ALERTS_RETRY_BASE_MS', 30_000, 10, 3_600_000),
  };
  {
    // Guarded changes never starve the pool: each may hold two connections at once, and the rest need some.
    const pool = config.databasePoolSize!;
    const changes = config.maxGuardedChanges!;
    const needed = changes * CONNECTIONS_PER_GUARDED_CHANGE + CONNECTIONS_BESIDE_GUARDED_CHANGES;
    if (config.databaseUrl && pool < needed) {
      problems.push(
        `DATABASE_POOL_SIZE=${pool} is too small for CONSOLE_MAX_GUARDED_CHANGES=${changes}: each running guarded change may hold ${CONNECTIONS_PER_GUARDED_CHANGE} connections and ${CONNECTIONS_BESIDE_GUARDED_CHANGES} are kept for sign-in and reads, so the pool needs at least ${needed} (raise DATABASE_POOL_SIZE or lower CONSOLE_MAX_GUARDED_CHANGES)`,
      );
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** CONSOLE_ALERTS_ALLOW_PRIVATE_TARGETS: ranges (`10.0.0.0/8`, `::1`) and host names, at most 50. */
function alertTargets(raw: string | undefined, problems: string[]): string[] {
  const items = (raw ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (items.length > 50) problems.push('CONSOLE_ALERTS_ALLOW_PRIVATE_TARGETS names more than 50 ranges or hosts');
  for (const item of items) {
    const range = item.includes('/') ? item : item.includes(':') ? `${item}/128` : `${item}/32`;
    const isAddress = parseIpAddress(item.split('/')[0]!) !== null;
    if (
      isAddress
        ? !isIpRange(range)
        : !/^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*$/.test(item)
    ) {
      problems.push(
        `CONSOLE_ALERTS_ALLOW_PRIVATE_TARGETS: "${item}" is neither an address range (10.0.0.0/8, ::1) nor a host name`,
      );
    }
  }
  return items.slice(0, 50);
}

/** 0 turns capacity sampling off; otherwise at least 10 s, so a replica never reads the API every second. */
function capacitySampleInterval(n: number, problems: string[]): number {
  if (n > 0 && n < 10) {
    problems.push(`CAPACITY_SAMPLE_INTERVAL_S is 0 (off) or at least 10 seconds (got ${n})`);
  }
  return n;
}
