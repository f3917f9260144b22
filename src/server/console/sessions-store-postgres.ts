/**
 * Sign-in sessions, one-time links and sign-in failure counters in PostgreSQL (DATABASE_URL): the same
 * interfaces as the SQLite store, shared by every replica, so a session opened through one replica works on
 * the others, a link printed by one opens a session on any, and failures count across all of them.
 */
import type { Migration } from '../../node/db';
import type { PgDatabase, PgQuery as Q } from './storage/postgres';
import {
  FAILURES_FORGOTTEN_MS,
  hashSecret,
  MAX_TRACKED_ADDRESSES,
  nextCount,
  OVERFLOW_KEY,
  TARGET_PREFIX,
  waitOf,
  fromStored,
  toStored,
  MAX_OIDC_LOGINS,
  OIDC_LOGIN_TTL_MS,
  type FailureRow,
  type OidcLogin,
  type StoredSessionRow,
  type SessionStore,
  type SignInFailureStore,
  type TakenLink,
} from './sessions-store';

export const sessionPgMigrations: Migration[] = [
  {
    id: 'access-001-sessions',
    sql: `
    CREATE TABLE console_sessions (
      id_hash TEXT PRIMARY KEY,
      fingerprint TEXT NOT NULL,
      method TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      last_seen_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL
    );
    CREATE INDEX console_sessions_expires_at ON console_sessions (expires_at);
    CREATE INDEX console_sessions_last_seen_at ON console_sessions (last_seen_at);
    CREATE TABLE console_sign_in_links (
      secret_hash TEXT PRIMARY KEY,
      created_at BIGINT NOT NULL
    );
  `,
  },
  {
    id: 'access-002-sign-in-failures',
    sql: `
    CREATE SEQUENCE console_sign_in_failures_seq;
    CREATE TABLE console_sign_in_failures (
      address_key TEXT PRIMARY KEY,
      count INTEGER NOT NULL,
      last_at BIGINT NOT NULL,
      blocked_until BIGINT NOT NULL,
      seq BIGINT NOT NULL DEFAULT nextval('console_sign_in_failures_seq')
    );
    CREATE INDEX console_sign_in_failures_seq_idx ON console_sign_in_failures (seq);
  `,
  },
  {
    // The person behind a session or a link (null for those of before, which keep working).
    id: 'access-003-names',
    sql: `
    ALTER TABLE console_sessions ADD COLUMN name TEXT;
    ALTER TABLE console_sign_in_links ADD COLUMN name TEXT;
  `,
  },
  {
    // Single sign-on: the person behind a session and the roles taken at sign-in; pending logins.
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
      created_at BIGINT NOT NULL
    );
    CREATE INDEX console_oidc_logins_created_at ON console_oidc_logins (created_at);
  `,
  },
];

export function createPgSessionStore(db: PgDatabase): SessionStore {
  return {
    async insert(idHash, row) {
      const r = toStored(row);
      await db.query(
        `INSERT INTO console_sessions (id_hash, fingerprint, method, created_at, last_seen_at, expires_at, name,
           subject, email, groups_json, roles_json)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [
          idHash,
          r.fingerprint,
          r.method,
          r.created_at,
          r.last_seen_at,
          r.expires_at,
          r.name,
          r.subject,
          r.email,
          r.groups_json,
          r.roles_json,
        ],
      );
    },
    async get(idHash) {
      const rows = await db.query<StoredSessionRow>(
        `SELECT fingerprint, method, created_at, last_seen_at, expires_at, name, subject, email, groups_json,
           roles_json FROM console_sessions WHERE id_hash = $1`,
        [idHash],
      );
      return rows[0] ? fromStored(rows[0]) : undefined;
    },
    async touch(idHash, at) {
      // Never moves back: two replicas touching at once keep the later time.
      await db.query('UPDATE console_sessions SET last_seen_at = GREATEST(last_seen_at, $1) WHERE id_hash = $2', [
        at,
        idHash,
      ]);
    },
    async delete(idHash) {
      await db.query('DELETE FROM console_sessions WHERE id_hash = $1', [idHash]);
    },
    async purge(now, idleMs, maxSessions) {
      await db.query('DELETE FROM console_sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now, now - idleMs]);
      await db.query(
        `DELETE FROM console_sessions WHERE id_hash IN (
           SELECT id_hash FROM console_sessions ORDER BY last_seen_at DESC OFFSET $1)`,
        [maxSessions],
      );
    },
    async revokeOtherFingerprints(fingerprint) {
      await db.query('DELETE FROM console_sessions WHERE fingerprint <> $1', [fingerprint]);
    },
    async addLink(secret, now, name) {
      await db.query('INSERT INTO console_sign_in_links (secret_hash, created_at, name) VALUES ($1, $2, $3)', [
        hashSecret(secret),
        now,
        name ?? null,
      ]);
    },
    async takeLink(secret) {
      // One DELETE: of two replicas given the same link at once, exactly one gets the row.
      const rows = await db.query<TakenLink>(
        'DELETE FROM console_sign_in_links WHERE secret_hash = $1 RETURNING name',
        [hashSecret(secret)],
      );
      return rows.length === 1 ? { name: rows[0]!.name ?? null } : false;
    },
    async clearLinks(before) {
      if (before === undefined) await db.query('DELETE FROM console_sign_in_links');
      else await db.query('DELETE FROM console_sign_in_links WHERE created_at < $1', [before]);
    },
    async addOidcLogin(state, login) {
      await db.query('DELETE FROM console_oidc_logins WHERE created_at <= $1', [login.created_at - OIDC_LOGIN_TTL_MS]);
      await db.query(
        `DELETE FROM console_oidc_logins WHERE state_hash IN (
           SELECT state_hash FROM console_oidc_logins ORDER BY created_at DESC OFFSET $1)`,
        [MAX_OIDC_LOGINS - 1],
      );
      await db.query(
        'INSERT INTO console_oidc_logins (state_hash, nonce, verifier, created_at) VALUES ($1, $2, $3, $4)',
        [hashSecret(state), login.nonce, login.verifier, login.created_at],
      );
    },
    async takeOidcLogin(state, now) {
      // One DELETE: of two replicas given the same callback at once, exactly one gets the login.
      const rows = await db.query<OidcLogin>(
        'DELETE FROM console_oidc_logins WHERE state_hash = $1 RETURNING nonce, verifier, created_at',
        [hashSecret(state)],
      );
      const row = rows[0];
      return row && now - Number(row.created_at) < OIDC_LOGIN_TTL_MS
        ? { ...row, created_at: Number(row.created_at) }
        : undefined;
    },
  };
}

export function createPgSignInFailureStore(db: PgDatabase, maxAddresses = MAX_TRACKED_ADDRESSES): SignInFailureStore {
  const rowsOf = async (q: Q, keys: readonly string[], lock: boolean) => {
    const rows = await q<FailureRow & { address_key: string }>(
      `SELECT address_key, count, last_at, blocked_until FROM console_sign_in_failures
       WHERE address_key = ANY($1::text[]) ORDER BY address_key${lock ? ' FOR UPDATE' : ''}`,
      [[...keys, OVERFLOW_KEY]],
    );
    return new Map(
      rows.map((r) => [r.address_key, { ...r, last_at: Number(r.last_at), blocked_until: Number(r.blocked_until) }]),
    );
  };
  const waitIn = (rows: Map<string, FailureRow>, keys: readonly string[], now: number) =>
    Math.max(
      0,
      ...keys.map((k) => {
        const own = rows.get(k);
        // An address without a row of its own may be one of those counted on the shared row.
        return own || k.startsWith(TARGET_PREFIX) ? waitOf(own, now) : waitOf(rows.get(OVERFLOW_KEY), now);
      }),
    );
  /** Counts one on each key, the shared row standing in for new addresses once the table is full. */
  const countIn = async (q: Q, rows: Map<string, FailureRow>, keys: readonly string[], now: number) => {
    for (const key of keys) {
      let k = key;
      if (!rows.has(key) && !key.startsWith(TARGET_PREFIX)) {
        const [{ n } = { n: 0 }] = await q<{ n: number }>('SELECT count(*)::int AS n FROM console_sign_in_failures');
        if (n >= maxAddresses) {
          await q(
            'DELETE FROM console_sign_in_failures WHERE blocked_until <= $1 AND last_at <= $2 AND address_key <> $3',
            [now, now - FAILURES_FORGOTTEN_MS, OVERFLOW_KEY],
          );
          const [{ n: left } = { n: 0 }] = await q<{ n: number }>(
            'SELECT count(*)::int AS n FROM console_sign_in_failures',
          );
          if (left >= maxAddresses) k = OVERFLOW_KEY;
        }
      }
      const next = nextCount(k, rows.get(k), now);
      await q(
        `INSERT INTO console_sign_in_failures (address_key, count, last_at, blocked_until) VALUES ($1, $2, $3, $4)
         ON CONFLICT (address_key) DO UPDATE SET count = $2, last_at = $3, blocked_until = $4,
           seq = nextval('console_sign_in_failures_seq')`,
        [k, next.count, next.last_at, next.blocked_until],
      );
      rows.set(k, next);
    }
  };
  /** The keys' rows locked (created first, so two replicas counting the same key serialize on it). */
  const locked = async (q: Q, keys: readonly string[]) => {
    await q(
      `INSERT INTO console_sign_in_failures (address_key, count, last_at, blocked_until)
       SELECT k, 0, 0, 0 FROM unnest($1::text[]) AS k ON CONFLICT (address_key) DO NOTHING`,
      [keys.filter((k) => k.startsWith(TARGET_PREFIX))],
    );
    return rowsOf(q, keys, true);
  };
  return {
    async waitMs(keys, now) {
      const list = [keys].flat();
      return waitIn(await rowsOf(db.query.bind(db), list, false), list, now);
    },
    attempt: (keys, now) =>
      db.transaction(async (q) => {
        const rows = await locked(q, keys);
        const wait = waitIn(rows, keys, now);
        if (wait === 0) await countIn(q, rows, keys, now);
        return wait;
      }),
    async refund(keys) {
      await db.query(
        'UPDATE console_sign_in_failures SET count = GREATEST(count - 1, 0), blocked_until = 0 WHERE address_key = ANY($1::text[])',
        [[...keys]],
      );
    },
    async fail(key, now) {
      await db.transaction(async (q) => countIn(q, await locked(q, [key]), [key], now));
    },
    async reset(key) {
      await db.query('DELETE FROM console_sign_in_failures WHERE address_key = $1', [key]);
    },
    async size() {
      const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM console_sign_in_failures');
      return rows[0]?.n ?? 0;
    },
  };
}
