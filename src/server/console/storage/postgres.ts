/**
 * The console's PostgreSQL connection (DATABASE_URL), shared by every replica: one pool per process, versioned
 * migrations applied at start under an advisory lock (several replicas may start at once), and one error for
 * "the database cannot be reached" that the endpoints answer as 503. The pool reconnects by itself: a lost
 * connection fails the requests of the moment, and the next ones open new connections once the database is back.
 */
import pg from 'pg';
import type { Migration } from '../../../node/db';

/** The store cannot be reached (connection refused, dropped, timed out, the server shutting down). */
export class StoreUnavailable extends Error {
  constructor(
    readonly store: 'postgres' | 'sqlite',
    readonly reason: string,
  ) {
    super(`The console's store (${store === 'postgres' ? 'PostgreSQL' : 'SQLite'}) is unavailable: ${reason}`);
    this.name = 'StoreUnavailable';
  }
}

/** Error codes and messages that mean the database is out of reach, not that a statement was wrong. */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|connection error|timeout exceeded when trying to connect|Query read timeout|not queryable|Client was closed|the database system is (starting up|shutting down)|terminating connection/i;

export function isConnectionError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  if (err instanceof AggregateError) return err.errors.some(isConnectionError);
  return CONNECTION_MESSAGES.test(err.message);
}

/** A short reason for logs and the health answer: never the URL or its password. */
function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return 'unknown error';
  const code = (err as { code?: unknown }).code;
  const first = err.message.split('\n')[0]!.slice(0, 160);
  return typeof code === 'string' && !first.includes(code) ? `${code}: ${first}` : first || err.name;
}

/** DATABASE_URL without its password (for a log line). */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    u.search = '';
    return u.toString().replace(/:@/, '@');
  } catch {
    return 'postgres://(unparsable)';
  }
}

/** The password in DATABASE_URL, for the redactor; undefined when there is none. */
export function databasePassword(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const p = decodeURIComponent(new URL(url).password);
    return p || undefined;
  } catch {
    return undefined;
  }
}

export interface StoreState {
  [member: string]: unknown;
  kind: 'postgres' | 'sqlite';
  state: 'ok' | 'unavailable';
  /** Unix seconds since the store is unavailable. */
  unavailable_since: number | null;
  /** Why it is unavailable (never a secret). */
  error: string | null;
  /** Migrations applied to the schema. */
  migrations: number;
}

export interface PgDatabase {
  pool: pg.Pool;
  /** Runs one statement; answers its rows. A lost database becomes StoreUnavailable. */
  query<R extends object = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** Runs `work` in one transaction on one connection (committed, or rolled back when it throws). */
  transaction<T>(work: (q: PgQuery) => Promise<T>): Promise<T>;
  /** A dedicated connection for `work` (advisory locks); destroyed afterwards when it failed. */
  withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /** Checks the connection now (`SELECT 1`) and answers the state. */
  ping(): Promise<StoreState>;
  state(): StoreState;
  /** Converts a connection error into StoreUnavailable (and notes it); other errors pass unchanged. */
  translate(err: unknown): unknown;
  /** Notes how many migrations the schema has (for the health answer). */
  noteMigrations(count: number): void;
  /**
   * The server listens now. Before, a lost database is the start waiting for it (openPgDatabase says so);
   * from here on, an outage is logged as one — and one still going on is logged now.
   */
  markServing(): void;
  close(): Promise<void>;
}

export type PgQuery = <R extends object = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<R[]>;

/** bigint (count(*), epoch milliseconds) as a JavaScript number: every value the console stores is < 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? (v: string) => Number(v)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** Connections one replica opens at most unless DATABASE_POOL_SIZE says otherwise. */
export const DEFAULT_POOL_SIZE = 10;

export interface PgOptions {
  /** Most connections this replica opens (DATABASE_POOL_SIZE, default 10). */
  max?: number;
  /** How long a request waits for a connection before it is answered 503 (default 3 s). */
  connectTimeoutMs?: number;
  /** Longest a statement may run (default 15 s). */
  queryTimeoutMs?: number;
  /** Told about connection trouble, once per outage, and when it is over (never with a secret). */
  log?: (line: string) => void;
}

export function createPgDatabase(url: string, opts: PgOptions = {}): PgDatabase {
  const log = opts.log ?? ((line: string) => console.warn(line));
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? DEFAULT_POOL_SIZE,
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 3_000,
    idleTimeoutMillis: 30_000,
    query_timeout: opts.queryTimeoutMs ?? 15_000,
    keepAlive: true,
    application_name: 'agent-platform-console',
    types,
  });
  let unavailableSince: number | null = null;
  let lastError: string | null = null;
  let migrations = 0;
  let serving = false;
  const outageLine = () => `[console] PostgreSQL is unavailable (${lastError}); answering 503 until it is back`;

  const down = (err: unknown) => {
    lastError = reasonOf(err);
    if (unavailableSince === null) {
      unavailableSince = Math.floor(Date.now() / 1000);
      if (serving) log(outageLine());
    }
  };
  const up = () => {
    if (unavailableSince !== null && serving) log('[console] PostgreSQL is available again');
    unavailableSince = null;
    lastError = null;
  };
  // An idle connection that breaks (the server restarted, a network blip) is reported here; without a
  // listener the process would crash. The pool drops it and opens a new one when next needed.
  pool.on('error', (err) => down(err));

  const translate = (err: unknown): unknown => {
    if (err instanceof StoreUnavailable) return err;
    if (isConnectionError(err)) {
      down(err);
      return new StoreUnavailable('postgres', reasonOf(err));
    }
    return err;
  };

  const query: PgQuery = async (text, params) => {
    try {
      const r = await pool.query(text, params as unknown[]);
      up();
      return r.rows;
    } catch (err) {
      throw translate(err);
    }
  };

  async function withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
    } catch (err) {
      throw translate(err);
    }
    let broken: unknown;
    // A checked-out connection's error is emitted on it: noted here, so the process does not crash.
    const onError = (err: unknown) => {
      broken = err;
      down(err);
    };
    client.on('error', onError);
    try {
      const result = await work(client);
      up();
      return result;
    } catch (err) {
      // A connection that failed is destroyed; one that answered an error (a refused change) goes back.
      if (isConnectionError(err)) broken ??= err;
      throw translate(err);
    } finally {
      client.removeListener('error', onError);
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  const state = (): StoreState => ({
    kind: 'postgres',
    state: unavailableSince === null ? 'ok' : 'unavailable',
    unavailable_since: unavailableSince,
    error: lastError,
    migrations,
  });

  return {
    pool,
    query,
    withClient,
    translate,
    transaction: (work) =>
      withClient(async (client) => {
        await client.query('BEGIN');
        try {
          const q: PgQuery = async (text, params) => (await client.query(text, params as unknown[])).rows;
          const result = await work(q);
          await client.query('COMMIT');
          return result;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw err;
        }
      }),
    async ping() {
      try {
        await query('SELECT 1');
      } catch {
        // noted by query()
      }
      return state();
    },
    state,
    noteMigrations: (count) => void (migrations = count),
    markServing() {
      if (serving) return;
      serving = true;
      if (unavailableSince !== null) log(outageLine());
    },
    close: () => pool.end(),
  };
}

/**
 * Applies the migrations not applied yet, each in its own transaction, under a session advisory lock: when
 * several replicas start at once, one migrates and the others wait, then find nothing left to do.
 * Answers the ids it applied.
 */
export async function migratePg(db: PgDatabase, migrations: readonly Migration[]): Promise<string[]> {
  const ran: string[] = [];
  await db.withClient(async (client) => {
    await client.query(`SELECT pg_advisory_lock(hashtextextended('agent-platform-console:migrations', 0))`);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS console_schema_migrations (id TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)',
      );
      const applied = new Set(
        (await client.query<{ id: string }>('SELECT id FROM console_schema_migrations')).rows.map((r) => r.id),
      );
      for (const m of migrations) {
        if (applied.has(m.id)) continue;
        await client.query('BEGIN');
        try {
          await client.query(m.sql);
          await client.query('INSERT INTO console_schema_migrations (id, applied_at) VALUES ($1, $2)', [
            m.id,
            Math.floor(Date.now() / 1000),
          ]);
          await client.query('COMMIT');
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw new Error(`PostgreSQL migration ${m.id} failed: ${reasonOf(err)}`, { cause: err });
        }
        ran.push(m.id);
      }
      db.noteMigrations(applied.size + ran.length);
    } finally {
      await client
        .query(`SELECT pg_advisory_unlock(hashtextextended('agent-platform-console:migrations', 0))`)
        .catch(() => undefined);
    }
  });
  return ran;
}

/**
 * Connects and migrates, waiting for the database while it is not reachable yet (replicas often start with it),
 * up to `waitMs`; then the start is refused with one clear line.
 */
export async function openPgDatabase(
  url: string,
  migrations: readonly Migration[],
  opts: PgOptions & { waitMs?: number } = {},
): Promise<PgDatabase> {
  const db = createPgDatabase(url, opts);
  const deadline = Date.now() + (opts.waitMs ?? 30_000);
  let delay = 250;
  let said = false;
  for (;;) {
    try {
      await migratePg(db, migrations);
      return db;
    } catch (err) {
      if (err instanceof StoreUnavailable && !said && Date.now() + delay <= deadline) {
        said = true;
        (opts.log ?? ((line: string) => console.warn(line)))(
          `[console] PostgreSQL at ${describeDatabaseUrl(url)} is not reachable yet (${err.reason}); waiting for it`,
        );
      }
      if (!(err instanceof StoreUnavailable) || Date.now() + delay > deadline) {
        await db.close().catch(() => undefined);
        const what = err instanceof Error ? err.message : 'unknown error';
        throw new Error(`PostgreSQL at ${describeDatabaseUrl(url)} could not be used: ${what}`, { cause: err });
      }
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 2_000);
    }
  }
}
