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
  {
    // Single sign-on (issue 31): the person behind a session (subject, email, groups) and the console roles
    // taken at sign-in; the pending OpenID Connect logins (state, nonce, PKCE verifier), single-use and
    // short-lived, so a callback works on any replica and a replayed one fails.
    id: 'access-004-people',
    sql: `
    ALTER TABLE console_sessions ADD COLUMN subject TEXT;
    ALTER TABLE console_sessions ADD COLUMN email TEXT;
    ALTER TABLE console_sessions ADD COLUMN groups_json TEXT;
    ALTER TABLE console_sessions ADD COLUMN roles_json TEXT;
    CREATE TABLE console_oidc_logins (
      state_hash TEXT PRIMARY KEY,
      nonce TEXT NOT NULL,
      verifier TEXT NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX console_oidc_logins_created_at ON console_oidc_logins (created_at);
  `,
  },
];

export const SIGN_IN_PATH = '/console/sign-in';

/** How a session was opened: a one-time link, the access token, or single sign-on (OpenID Connect). */
export type SignInMethod = 'link' | 'token' | 'oidc';

/** One role a session holds and the grant of the policy that gave it. */
export interface SessionRole {
  role: string;
  grant: string;
}

export interface SessionRow {
  fingerprint: string;
  method: SignInMethod;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  /** The name given at sign-in (trimmed, 1–80 characters); null when none was. Read back as null, not absent. */
  name?: string | null;
  /** Single sign-on: the provider's subject, the email and the groups from the ID token. */
  subject?: string | null;
  email?: string | null;
  groups?: string[];
  /** The console roles taken at sign-in (they end with the session). */
  roles?: SessionRole[];
}

/** The columns a session row is stored as (lists as JSON). */
export interface StoredSessionRow {
  fingerprint: string;
  method: SignInMethod;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  name: string | null;
  subject: string | null;
  email: string | null;
  groups_json: string | null;
  roles_json: string | null;
}

const parseList = <T>(json: string | null): T[] | undefined => {
  if (!json) return undefined;
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? (v as T[]) : undefined;
  } catch {
    return undefined;
  }
};

/** A session row as stored → as used. */
export function fromStored(r: StoredSessionRow): SessionRow {
  return {
    fingerprint: r.fingerprint,
    method: r.method,
    created_at: Number(r.created_at),
    last_seen_at: Number(r.last_seen_at),
    expires_at: Number(r.expires_at),
    name: r.name ?? null,
    // Only a single sign-on session has these (absent, not null, on the others).
    ...(r.subject ? { subject: r.subject } : {}),
    ...(r.email ? { email: r.email } : {}),
    ...(r.groups_json ? { groups: parseList<string>(r.groups_json) } : {}),
    ...(r.roles_json ? { roles: parseList<SessionRole>(r.roles_json) } : {}),
  };
}

/** A session row as used → the columns it is stored in. */
export function toStored(row: SessionRow): StoredSessionRow {
  return {
    fingerprint: row.fingerprint,
    method: row.method,
    created_at: row.created_at,
    last_seen_at: row.last_seen_at,
    expires_at: row.expires_at,
    name: row.name ?? null,
    subject: row.subject ?? null,
    email: row.email ?? null,
    groups_json: row.groups ? JSON.stringify(row.groups) : null,
    roles_json: row.roles ? JSON.stringify(row.roles) : null,
  };
}

/** A pending OpenID Connect login, kept from the redirect to the provider until its callback. */
export interface OidcLogin {
  nonce: string;
  verifier: string;
  created_at: number;
}

/** A login's state is valid this long (a person signing in at the provider has this long to finish). */
export const OIDC_LOGIN_TTL_MS = 10 * 60_000;
/** Pending logins kept at most (the oldest are dropped): a flood of sign-in starts cannot fill the store. */
export const MAX_OIDC_LOGINS = 10_000;

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
  /** Stores a pending login under its state (hashed), dropping expired ones and any beyond the cap. */
  addOidcLogin(state: string, login: OidcLogin): Promise<void>;
  /** Consumes a pending login: once (a replayed callback finds nothing); undefined when unknown or expired. */
  takeOidcLogin(state: string, now: number): Promise<OidcLogin | undefined>;
}

/** Failures allowed before backoff starts. */
export const FREE_FAILURES = 5;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_MAX_MS = 15 * 60_000;
/** An address's failures are forgotten after this long without one (when it is not blocked). */
export const FAILURES_FORGOTTEN_MS = 60 * 60_000;
/**
 * At most this many addresses are tracked one by one. A blocked address is never forgotten to make room: once
 * the table is full (after forgetting the addresses whose failures have lapsed), every further address counts
 * on one shared row (OVERFLOW_KEY), so together they get the backoff of one address.
 */
export const MAX_TRACKED_ADDRESSES = 10_000;
/** The shared row of the addresses that found the table full. */
export const OVERFLOW_KEY = 'overflow:*';
/**
 * Credential targets (the access token, the one-time links) count every attempt from every address: at most
 * this many per hour each, however many addresses are used. A key of this prefix is a target.
 */
export const TARGET_PREFIX = 'target:';
export const TARGET_ATTEMPTS_PER_HOUR = 60;
const TARGET_WINDOW_MS = 60 * 60_000;

export interface FailureRow {
  count: number;
  /** The last failure; for a target, the start of its hour. */
  last_at: number;
  blocked_until: number;
}

const isTarget = (key: string) => key.startsWith(TARGET_PREFIX);

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

/** A target's counter after one more attempt at `now`: a budget per hour, then blocked until the hour ends. */
export function nextTargetAttempt(prior: FailureRow | undefined, now: number): FailureRow {
  const fresh = !prior || prior.count === 0 || now - prior.last_at >= TARGET_WINDOW_MS;
  const start = fresh ? now : prior.last_at;
  const count = (fresh ? 0 : prior.count) + 1;
  return { count, last_at: start, blocked_until: count >= TARGET_ATTEMPTS_PER_HOUR ? start + TARGET_WINDOW_MS : 0 };
}

/** The counter of `key` after one more failure (an address) or attempt (a target). */
export const nextCount = (key: string, prior: FailureRow | undefined, now: number) =>
  isTarget(key) ? nextTargetAttempt(prior, now) : nextFailure(prior, now);

/** Milliseconds `row` still makes its key wait at `now`. */
export const waitOf = (row: FailureRow | undefined, now: number) =>
  row && row.blocked_until > now ? row.blocked_until - now : 0;

/**
 * Failed sign-ins per address and attempts per credential target (bounded), shared by every replica on the
 * same store.
 */
export interface SignInFailureStore {
  /** Milliseconds the longest waiting of `keys` must still wait, or 0. */
  waitMs(keys: string | readonly string[], now: number): Promise<number>;
  /**
   * An attempt, counted before it is evaluated: when none of `keys` must wait, one failure is counted on each
   * (in one transaction) and 0 is answered; else the wait, and nothing is counted.
   */
  attempt(keys: readonly string[], now: number): Promise<number>;
  /** An attempt counted that turned out not to be one (the token was not looked at): given back. */
  refund(keys: readonly string[]): Promise<void>;
  fail(key: string, now: number): Promise<void>;
  reset(key: string): Promise<void>;
  /** Rows tracked (addresses, the shared overflow row, targets). */
  size(): Promise<number>;
}

export function createSessionStore(db: Db): SessionStore {
  const insert = db.prepare(
    `INSERT INTO console_sessions (id_hash, fingerprint, method, created_at, last_seen_at, expires_at, name,
       subject, email, groups_json, roles_json)
     VALUES (@id_hash, @fingerprint, @method, @created_at, @last_seen_at, @expires_at, @name,
       @subject, @email, @groups_json, @roles_json)`,
  );
  const get = db.prepare<[string], StoredSessionRow>(
    `SELECT fingerprint, method, created_at, last_seen_at, expires_at, name, subject, email, groups_json, roles_json
     FROM console_sessions WHERE id_hash = ?`,
  );
  const addLogin = db.prepare(
    'INSERT INTO console_oidc_logins (state_hash, nonce, verifier, created_at) VALUES (?, ?, ?, ?)',
  );
  const dropOldLogins = db.prepare('DELETE FROM console_oidc_logins WHERE created_at <= ?');
  const dropExcessLogins = db.prepare(
    `DELETE FROM console_oidc_logins WHERE state_hash IN (
       SELECT state_hash FROM console_oidc_logins ORDER BY created_at DESC LIMIT -1 OFFSET ?)`,
  );
  const takeLogin = db.prepare<[string], OidcLogin>(
    'DELETE FROM console_oidc_logins WHERE state_hash = ? RETURNING nonce, verifier, created_at',
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
    insert: async (idHash, row) => void insert.run({ id_hash: idHash, ...toStored(row) }),
    get: async (idHash) => {
      const r = get.get(idHash);
      return r ? fromStored(r) : undefined;
    },
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
    async addOidcLogin(state, login) {
      dropOldLogins.run(login.created_at - OIDC_LOGIN_TTL_MS);
      dropExcessLogins.run(MAX_OIDC_LOGINS - 1);
      addLogin.run(hashSecret(state), login.nonce, login.verifier, login.created_at);
    },
    async takeOidcLogin(state, now) {
      const row = takeLogin.get(hashSecret(state));
      return row && now - Number(row.created_at) < OIDC_LOGIN_TTL_MS ? row : undefined;
    },
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
  const forget = db.prepare(
    'DELETE FROM console_sign_in_failures WHERE blocked_until <= ? AND last_at <= ? AND address_key <> ?',
  );
  const refund = db.prepare(
    'UPDATE console_sign_in_failures SET count = max(count - 1, 0), blocked_until = 0 WHERE address_key = ?',
  );
  const del = db.prepare('DELETE FROM console_sign_in_failures WHERE address_key = ?');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM console_sign_in_failures');
  /** The row `key` counts on: its own, or the shared one when it is a new address and the table is full. */
  const rowKey = (key: string, now: number): string => {
    if (isTarget(key) || get.get(key)) return key;
    if (count.get()!.n < maxAddresses) return key;
    forget.run(now, now - FAILURES_FORGOTTEN_MS, OVERFLOW_KEY);
    return count.get()!.n < maxAddresses ? key : OVERFLOW_KEY;
  };
  const waitOfKey = (key: string, now: number) => {
    const own = get.get(key);
    // An address without a row of its own may be one of those counted on the shared row.
    return own || isTarget(key) ? waitOf(own, now) : waitOf(get.get(OVERFLOW_KEY), now);
  };
  const count1 = (key: string, now: number) => {
    const k = rowKey(key, now);
    upsert.run({ key: k, ...nextCount(k, get.get(k), now) });
  };
  const attempt = db.transaction((keys: readonly string[], now: number) => {
    const wait = Math.max(0, ...keys.map((k) => waitOfKey(k, now)));
    if (wait === 0) for (const k of keys) count1(k, now);
    return wait;
  });
  const refundAll = db.transaction((keys: readonly string[]) => keys.forEach((k) => refund.run(k)));
  const fail = db.transaction((key: string, now: number) => count1(key, now));
  return {
    waitMs: async (keys, now) => Math.max(0, ...[keys].flat().map((k) => waitOfKey(k, now))),
    attempt: async (keys, now) => attempt(keys, now),
    refund: async (keys) => void refundAll(keys),
    fail: async (key, now) => void fail(key, now),
    reset: async (key) => void del.run(key),
    size: async () => count.get()!.n,
  };
}
