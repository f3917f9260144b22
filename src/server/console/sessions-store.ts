/**
 * Sign-in sessions, one-time sign-in links and sign-in failure counters of the console: the interfaces, and
 * their SQLite implementation (console.db; `sessions-store-postgres.ts` is the PostgreSQL one, shared by
 * replicas). Only SHA-256 hashes of the secrets are stored: a copy of the database lets nobody sign in.
 * Times are epoch milliseconds.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db, Migration } from '../../node/db';

export const sessionMigrations: Migration[] = [
  {
    id: 'access-001-sessions',
    sql: `
    CREATE TABLE console_sessions (
      id_hash TEXT PRIMARY KEY,
      fingerprint TEXT NOT NULL,
      method TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      last_seen_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    );
    CREATE INDEX console_sessions_expires_at ON console_sessions (expires_at);
    CREATE INDEX console_sessions_last_seen_at ON console_sessions (last_seen_at);
    CREATE TABLE console_sign_in_links (
      secret_hash TEXT PRIMARY KEY,
      created_at INTEGER NOT NULL
    );
  `,
  },
  {
    // Failed sign-ins per address, in the store (they were in memory): every replica counts the same failures.
    id: 'access-002-sign-in-failures',
    sql: `
    CREATE TABLE console_sign_in_failures (
      address_key TEXT PRIMARY KEY,
      count INTEGER NOT NULL,
      last_at INTEGER NOT NULL,
      blocked_until INTEGER NOT NULL,
      seq INTEGER NOT NULL
    );
    CREATE INDEX console_sign_in_failures_seq ON console_sign_in_failures (seq);
  `,
  },
  {
    // The person behind a session (the name given at sign-in, or bound to its link): the history's "who".
    // Sessions and links of before have none (null), and keep working.
    id: 'access-003-names',
    sql: `
    ALTER TABLE console_sessions ADD COLUMN name TEXT;
    ALTER TABLE console_sign_in_links ADD COLUMN name TEXT;
  `,
  },
];

export const SIGN_IN_PATH = '/console/sign-in';

/** How a session was opened. */
export type SignInMethod = 'link' | 'token';

export interface SessionRow {
  fingerprint: string;
  method: SignInMethod;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  /** The name given at sign-in (trimmed, 1–80 characters); null when none was. Read back as null, not absent. */
  name?: string | null;
}

/** A one-time link taken: the name it was bound to, if any. */
export interface TakenLink {
  name: string | null;
}

/** A new random secret: 32 bytes, base64url. */
export const newSecret = () => randomBytes(32).toString('base64url');

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export interface SessionStore {
  insert(idHash: string, row: SessionRow): Promise<void>;
  get(idHash: string): Promise<SessionRow | undefined>;
  touch(idHash: string, at: number): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** Deletes sessions past their absolute or idle expiry, and any beyond `maxSessions` (oldest first). */
  purge(now: number, idleMs: number, maxSessions: number): Promise<void>;
  /** Deletes every session opened under another configuration (another access token). */
  revokeOtherFingerprints(fingerprint: string): Promise<void>;
  /** Stores a one-time link secret (its hash), bound to a person's name when one is given. */
  addLink(secret: string, now: number, name?: string | null): Promise<void>;
  /** Consumes a one-time link secret: its name once, false for a used or unknown one. */
  takeLink(secret: string): Promise<TakenLink | false>;
  /** Forgets unused links: every one, or those created before `before` (epoch ms). */
  clearLinks(before?: number): Promise<void>;
}

/** Failures allowed before backoff starts. */
export const FREE_FAILURES = 5;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_MAX_MS = 15 * 60_000;
/** An address's failures are forgotten after this long without one (when it is not blocked). */
export const FAILURES_FORGOTTEN_MS = 60 * 60_000;
/** At most this many addresses are tracked; the least recently failing ones are forgotten first. */
export const MAX_TRACKED_ADDRESSES = 10_000;

export interface FailureRow {
  count: number;
  last_at: number;
  blocked_until: number;
}

/** An address's counter after one more failure at `now`: exponential backoff after FREE_FAILURES. */
export function nextFailure(prior: FailureRow | undefined, now: number): FailureRow {
  const base = prior && prior.count > 0 && now - prior.last_at < FAILURES_FORGOTTEN_MS ? prior.count : 0;
  const count = base + 1;
  const blocked_until =
    count >= FREE_FAILURES
      ? now + Math.min(BACKOFF_BASE_MS * 2 ** Math.min(count - FREE_FAILURES, 30), BACKOFF_MAX_MS)
      : 0;
  return { count, last_at: now, blocked_until };
}

/** Failed sign-ins per address (bounded), shared by every replica on the same store. */
export interface SignInFailureStore {
  /** Milliseconds the address must still wait, or 0. */
  waitMs(key: string, now: number): Promise<number>;
  fail(key: string, now: number): Promise<void>;
  reset(key: string): Promise<void>;
  /** Addresses tracked. */
  size(): Promise<number>;
}

export function createSessionStore(db: Db): SessionStore {
  const insert = db.prepare(
    `INSERT INTO console_sessions (id_hash, fingerprint, method, created_at, last_seen_at, expires_at, name)
     VALUES (@id_hash, @fingerprint, @method, @created_at, @last_seen_at, @expires_at, @name)`,
  );
  const get = db.prepare<[string], SessionRow>(
    'SELECT fingerprint, method, created_at, last_seen_at, expires_at, name FROM console_sessions WHERE id_hash = ?',
  );
  const touch = db.prepare('UPDATE console_sessions SET last_seen_at = ? WHERE id_hash = ?');
  const del = db.prepare('DELETE FROM console_sessions WHERE id_hash = ?');
  const purgeExpired = db.prepare('DELETE FROM console_sessions WHERE expires_at <= ? OR last_seen_at <= ?');
  const purgeExcess = db.prepare(
    `DELETE FROM console_sessions WHERE id_hash IN (
       SELECT id_hash FROM console_sessions ORDER BY last_seen_at DESC LIMIT -1 OFFSET ?)`,
  );
  const revoke = db.prepare('DELETE FROM console_sessions WHERE fingerprint <> ?');
  const addLink = db.prepare('INSERT INTO console_sign_in_links (secret_hash, created_at, name) VALUES (?, ?, ?)');
  const takeLink = db.prepare<[string], TakenLink>(
    'DELETE FROM console_sign_in_links WHERE secret_hash = ? RETURNING name',
  );
  const clearLinks = db.prepare('DELETE FROM console_sign_in_links');
  const clearLinksBefore = db.prepare('DELETE FROM console_sign_in_links WHERE created_at < ?');

  return {
    insert: async (idHash, row) => void insert.run({ id_hash: idHash, ...row, name: row.name ?? null }),
    get: async (idHash) => get.get(idHash),
    touch: async (idHash, at) => void touch.run(at, idHash),
    delete: async (idHash) => void del.run(idHash),
    async purge(now, idleMs, maxSessions) {
      purgeExpired.run(now, now - idleMs);
      purgeExcess.run(maxSessions);
    },
    revokeOtherFingerprints: async (fingerprint) => void revoke.run(fingerprint),
    addLink: async (secret, now, name) => void addLink.run(hashSecret(secret), now, name ?? null),
    async takeLink(secret) {
      const row = takeLink.get(hashSecret(secret));
      return row ? { name: row.name ?? null } : false;
    },
    clearLinks: async (before) => void (before === undefined ? clearLinks.run() : clearLinksBefore.run(before)),
  };
}

export function createSignInFailureStore(db: Db, maxAddresses = MAX_TRACKED_ADDRESSES): SignInFailureStore {
  const get = db.prepare<[string], FailureRow>(
    'SELECT count, last_at, blocked_until FROM console_sign_in_failures WHERE address_key = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO console_sign_in_failures (address_key, count, last_at, blocked_until, seq)
     VALUES (@key, @count, @last_at, @blocked_until, (SELECT coalesce(max(seq), 0) + 1 FROM console_sign_in_failures))
     ON CONFLICT (address_key) DO UPDATE SET count = excluded.count, last_at = excluded.last_at,
       blocked_until = excluded.blocked_until, seq = excluded.seq`,
  );
  const prune = db.prepare(
    `DELETE FROM console_sign_in_failures WHERE address_key IN (
       SELECT address_key FROM console_sign_in_failures ORDER BY seq DESC LIMIT -1 OFFSET ?)`,
  );
  const del = db.prepare('DELETE FROM console_sign_in_failures WHERE address_key = ?');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM console_sign_in_failures');
  const fail = db.transaction((key: string, now: number) => {
    upsert.run({ key, ...nextFailure(get.get(key), now) });
    prune.run(maxAddresses);
  });
  return {
    async waitMs(key, now) {
      const f = get.get(key);
      return f && f.blocked_until > now ? f.blocked_until - now : 0;
    },
    fail: async (key, now) => void fail(key, now),
    reset: async (key) => void del.run(key),
    size: async () => count.get()!.n,
  };
}
