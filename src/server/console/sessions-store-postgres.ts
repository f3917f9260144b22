/**
 * Sign-in sessions, one-time links and sign-in failure counters in PostgreSQL (DATABASE_URL): the same
 * interfaces as the SQLite store, shared by every replica, so a session opened through one replica works on
 * the others, a link printed by one opens a session on any, and failures count across all of them.
 */
import type { Migration } from '../../node/db';
import type { PgDatabase } from './storage/postgres';
import {
  hashSecret,
  MAX_TRACKED_ADDRESSES,
  nextFailure,
  type FailureRow,
  type SessionRow,
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
];

export function createPgSessionStore(db: PgDatabase): SessionStore {
  return {
    async insert(idHash, row) {
      await db.query(
        `INSERT INTO console_sessions (id_hash, fingerprint, method, created_at, last_seen_at, expires_at, name)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [idHash, row.fingerprint, row.method, row.created_at, row.last_seen_at, row.expires_at, row.name ?? null],
      );
    },
    async get(idHash) {
      const rows = await db.query<SessionRow>(
        'SELECT fingerprint, method, created_at, last_seen_at, expires_at, name FROM console_sessions WHERE id_hash = $1',
        [idHash],
      );
      return rows[0];
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
  };
}

export function createPgSignInFailureStore(db: PgDatabase, maxAddresses = MAX_TRACKED_ADDRESSES): SignInFailureStore {
  return {
    async waitMs(key, now) {
      const rows = await db.query<{ blocked_until: number }>(
        'SELECT blocked_until FROM console_sign_in_failures WHERE address_key = $1',
        [key],
      );
      const until = rows[0]?.blocked_until ?? 0;
      return until > now ? until - now : 0;
    },
    async fail(key, now) {
      // The address's row locked for the read-compute-write, so failures at two replicas both count.
      await db.transaction(async (q) => {
        await q(
          `INSERT INTO console_sign_in_failures (address_key, count, last_at, blocked_until)
           VALUES ($1, 0, 0, 0) ON CONFLICT (address_key) DO NOTHING`,
          [key],
        );
        const [prior] = await q<FailureRow>(
          'SELECT count, last_at, blocked_until FROM console_sign_in_failures WHERE address_key = $1 FOR UPDATE',
          [key],
        );
        const next = nextFailure(prior, now);
        await q(
          `UPDATE console_sign_in_failures SET count = $2, last_at = $3, blocked_until = $4,
             seq = nextval('console_sign_in_failures_seq') WHERE address_key = $1`,
          [key, next.count, next.last_at, next.blocked_until],
        );
      });
      // Bounded outside the transaction (two replicas pruning at once must not deadlock on each other's rows);
      // a prune that loses a race is retried by the next failure.
      await db
        .query(
          `DELETE FROM console_sign_in_failures WHERE address_key IN (
             SELECT address_key FROM console_sign_in_failures ORDER BY seq DESC OFFSET $1)`,
          [maxAddresses],
        )
        .catch(() => undefined);
    },
    async reset(key) {
      await db.query('DELETE FROM console_sign_in_failures WHERE address_key = $1', [key]);
    },
    async size() {
      const rows = await db.query<{ n: number }>('SELECT count(*) AS n FROM console_sign_in_failures');
      return rows[0]?.n ?? 0;
    },
  };
}
