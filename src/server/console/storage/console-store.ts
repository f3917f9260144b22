/**
 * The console server's own store, one object per process: sign-in sessions and links, sign-in failure counters,
 * the history of every guarded set, the console's settings, and the per-set locks of guarded changes. Each
 * concern is one asynchronous interface with two implementations:
 *   - SQLite in DATA_DIR/console.db (the default; one console process), and
 *   - PostgreSQL when DATABASE_URL is set, shared by several console replicas behind a load balancer.
 * The migrations of both are listed in `../store.ts`.
 */
import { type Db, migrate, openDb } from '../../../node/db';
import type { Config } from '../../config';
import { createRevisionStore, type RetentionPolicy, type RevisionStore } from '../git-permissions/store';
import { createPgRevisionStore } from '../git-permissions/store-postgres';
import {
  createSessionStore,
  createSignInFailureStore,
  type SessionStore,
  type SignInFailureStore,
} from '../sessions-store';
import { createPgSessionStore, createPgSignInFailureStore } from '../sessions-store-postgres';
import { consoleMigrations, consolePgMigrations } from '../store';
import { createLocalLocks, createPgLocks, type GuardedLimits, type PgLockOptions, type SetLocks } from './locks';
import { openPgDatabase, StoreUnavailable, type PgDatabase, type PgOptions, type StoreState } from './postgres';
import { createPgSettingsStore, createSettingsStore, type SettingsStore } from './settings';
import { createSqliteIpAccessListStore, type IpAccessListRevisionStore } from '../ip-access-list/store';
import { createPgIpAccessListStore } from '../ip-access-list/store-postgres';
import { join } from 'node:path';
import type { Redactor } from '../../redact';
import { createPgAlertStore, createSqliteAlertStore, type AlertStore } from '../alerts/store';
import { createSqliteSettingsHistoryStore, type SettingsHistoryStore } from '../settings-history/store';
import { createPgSettingsHistoryStore } from '../settings-history/store-postgres';
import { createSqliteActivityStore, type ActivityRetention, type ActivityStore } from '../activity/store';
import { createPgActivityStore } from '../activity/store-postgres';
import { createSqliteConfigRevisionStore, type ConfigRevisionStore } from '../configuration/store';
import { createPgConfigRevisionStore } from '../configuration/store-postgres';
import {
  createPgCapacitySampleStore,
  createSqliteCapacitySampleStore,
  type CapacitySampleStore,
} from '../capacity-samples/store';

export interface ConsoleStore {
  kind: 'sqlite' | 'postgres';
  sessions: SessionStore;
  signInFailures: SignInFailureStore;
  /** The history of git-permission changes (retention applied on every change). */
  gitPermissions: RevisionStore;
  /** The history of IP access list changes (enterprise-wide; its `serialize` takes the shared lock too). */
  ipAccessList: IpAccessListRevisionStore;
  settings: SettingsStore;
  /** Alert rules, their conditions, notifications, webhooks and deliveries. */
  alerts: AlertStore;
  /** Console activity: every write made through the console, and who made it. */
  activity: ActivityStore;
  /** The history of organizations, limits, group limits, tags and roles changed through the console. */
  settingsHistory: SettingsHistoryStore;
  /** The configuration documents applied (or exported) through the console, with their plans and reports. */
  configuration: ConfigRevisionStore;
  /** The queue and hypervisors sampled over time (one sample per interval across replicas). */
  capacitySamples: CapacitySampleStore;
  /** Serializes guarded changes per set: in this process, and with PostgreSQL across every replica. */
  locks: SetLocks;
  /** The SQLite database itself (SQLite only). */
  sqlite: Db | undefined;
  /** PostgreSQL itself (PostgreSQL only). */
  postgres: PgDatabase | undefined;
  /** Checks the store now: reachable or not, and how many migrations its schema has. */
  health(): Promise<StoreState>;
  /** The server listens now: from here on an outage is logged as one (before, the start waits for the store). */
  markServing(): void;
  close(): Promise<void>;
}

export interface ConsoleStoreOptions extends GuardedLimits {
  retention?: RetentionPolicy;
  /** Console activity's retention (CONSOLE_ACTIVITY_RETENTION_DAYS, CONSOLE_ACTIVITY_MAX_ROWS). */
  activityRetention?: ActivityRetention;
  /** History clock in Unix seconds (tests move it). */
  clock?: () => number;
}

/** The SQLite store in `dataDir` (`:memory:` in tests), migrated. */
export function openSqliteConsoleStore(dataDir: string, opts: ConsoleStoreOptions = {}): ConsoleStore {
  const db = openDb(dataDir === ':memory:' ? ':memory:' : join(dataDir, 'console.db'));
  migrate(db, consoleMigrations);
  return sqliteConsoleStore(db, opts);
}

/** The store over an SQLite database already migrated with `consoleMigrations`. */
export function sqliteConsoleStore(db: Db, opts: ConsoleStoreOptions = {}): ConsoleStore {
  const migrations = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM schema_migrations');
  const locks = createLocalLocks(opts);
  return {
    kind: 'sqlite',
    sessions: createSessionStore(db),
    signInFailures: createSignInFailureStore(db),
    gitPermissions: createRevisionStore(db, opts.retention, opts.clock),
    ipAccessList: createSqliteIpAccessListStore(db, locks, opts.retention, opts.clock),
    settings: createSettingsStore(db),
    alerts: createSqliteAlertStore(db),
    activity: createSqliteActivityStore(db, opts.activityRetention),
    settingsHistory: createSqliteSettingsHistoryStore(db, locks, undefined, opts.clock),
    configuration: createSqliteConfigRevisionStore(db, opts.clock),
    capacitySamples: createSqliteCapacitySampleStore(db, nowSeconds(opts.clock)),
    locks,
    sqlite: db,
    postgres: undefined,
    async health() {
      try {
        return { kind: 'sqlite', state: 'ok', unavailable_since: null, error: null, migrations: migrations.get()!.n };
      } catch (err) {
        return {
          kind: 'sqlite',
          state: 'unavailable',
          unavailable_since: Math.floor(Date.now() / 1000),
          error: err instanceof Error ? err.message : 'unknown error',
          migrations: 0,
        };
      }
    },
    markServing: () => undefined,
    close: async () => void db.close(),
  };
}

/**
 * The PostgreSQL store at `url`: connects (waiting up to `waitMs` for a database that is still starting) and
 * applies the migrations not applied yet, under an advisory lock so replicas starting together migrate once.
 */
export async function openPostgresConsoleStore(
  url: string,
  opts: ConsoleStoreOptions & PgOptions & PgLockOptions & { waitMs?: number } = {},
): Promise<ConsoleStore> {
  const db = await openPgDatabase(url, consolePgMigrations, opts);
  const locks = createPgLocks(db, opts);
  return {
    kind: 'postgres',
    sessions: createPgSessionStore(db),
    signInFailures: createPgSignInFailureStore(db),
    gitPermissions: createPgRevisionStore(db, opts.retention, opts.clock),
    ipAccessList: createPgIpAccessListStore(db, locks, opts.retention, opts.clock),
    settings: createPgSettingsStore(db),
    alerts: createPgAlertStore(db),
    activity: createPgActivityStore(db, opts.activityRetention),
    settingsHistory: createPgSettingsHistoryStore(db, locks, undefined, opts.clock),
    configuration: createPgConfigRevisionStore(db, opts.clock),
    capacitySamples: createPgCapacitySampleStore(db, nowSeconds(opts.clock)),
    locks,
    sqlite: undefined,
    postgres: db,
    health: () => db.ping(),
    markServing: () => db.markServing(),
    close: () => db.close(),
  };
}

/**
 * The same store, with every history row and setting redacted before it is written: the previous and resulting
 * sets, the planned changes, an error, a stored report. Redacted before the write, so the credential an
 * upstream put into its data never reaches console.db, its WAL, or PostgreSQL.
 */
export function redactingStore(store: ConsoleStore, redactor: Redactor): ConsoleStore {
  const clean = redactor.redactValue;
  const { gitPermissions: git, ipAccessList: ip, settings } = store;
  return {
    ...store,
    gitPermissions: {
      ...git,
      begin: (input) => git.begin(clean(input)),
      finish: (orgId, id, outcome) => git.finish(orgId, id, clean(outcome)),
    },
    ipAccessList: {
      ...ip,
      begin: (input) => ip.begin(clean(input)),
      finish: (id, outcome) => ip.finish(id, clean(outcome)),
    },
    settings: { ...settings, set: (key, value) => settings.set(key, clean(value)) },
    settingsHistory: {
      ...store.settingsHistory,
      begin: (input) => store.settingsHistory.begin(clean(input)),
      finish: (id, outcome) => store.settingsHistory.finish(id, clean(outcome)),
      recordGap: (gap) => store.settingsHistory.recordGap(clean(gap)),
    },
  };
}

/** What of the configuration the store takes. */
export type StoreConfig = Pick<
  Config,
  | 'dataDir'
  | 'databaseUrl'
  | 'historyMaxRevisions'
  | 'historyMaxAgeDays'
  | 'databasePoolSize'
  | 'maxGuardedChanges'
  | 'guardedChangesQueue'
  | 'upstreamTimeoutMs'
  | 'activityRetentionDays'
  | 'activityMaxRows'
>;

/** The store's options the configuration sets (retention, pool, guarded changes, fencing budget). */
export function storeOptionsOf(config: Partial<StoreConfig>): ConsoleStoreOptions & PgOptions & PgLockOptions {
  return {
    retention:
      config.historyMaxRevisions !== undefined && config.historyMaxAgeDays !== undefined
        ? { maxRevisions: config.historyMaxRevisions, maxAgeDays: config.historyMaxAgeDays }
        : undefined,
    max: config.databasePoolSize,
    maxRunning: config.maxGuardedChanges,
    maxQueued: config.guardedChangesQueue,
    // A fence keeps the lease for the longest one upstream write may take, plus a margin.
    writeBudgetMs: config.upstreamTimeoutMs !== undefined ? config.upstreamTimeoutMs + 5_000 : undefined,
    activityRetention:
      config.activityRetentionDays !== undefined && config.activityMaxRows !== undefined
        ? { maxAgeDays: config.activityRetentionDays, maxRows: config.activityMaxRows }
        : undefined,
  };
}

/** The store the configuration asks for: PostgreSQL with DATABASE_URL, else SQLite in DATA_DIR. */
export async function openConsoleStoreFor(
  config: StoreConfig,
  opts: PgOptions & PgLockOptions & { waitMs?: number } = {},
): Promise<ConsoleStore> {
  const fromConfig = storeOptionsOf(config);
  return config.databaseUrl
    ? openPostgresConsoleStore(config.databaseUrl, { ...fromConfig, ...opts })
    : openSqliteConsoleStore(config.dataDir, fromConfig);
}

export { StoreUnavailable, type StoreState };

/** The store's clock in Unix seconds: the one tests pass, else the wall clock. */
function nowSeconds(clock: (() => number) | undefined): () => number {
  return clock ?? (() => Math.floor(Date.now() / 1000));
}
