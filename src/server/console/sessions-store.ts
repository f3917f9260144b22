/**
 * Sign-in sessions and one-time sign-in links of the console, in console.db. Only SHA-256 hashes of the
 * secrets are stored: a copy of the database lets nobody sign in. Times are epoch milliseconds.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../node/db';
import { consoleMigrations } from './store';

consoleMigrations.push({
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
});

export const SIGN_IN_PATH = '/console/sign-in';

/** How a session was opened. */
export type SignInMethod = 'link' | 'token';

export interface SessionRow {
  fingerprint: string;
  method: SignInMethod;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

/** A new random secret: 32 bytes, base64url. */
export const newSecret = () => randomBytes(32).toString('base64url');

export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

export interface SessionStore {
  insert(idHash: string, row: SessionRow): void;
  get(idHash: string): SessionRow | undefined;
  touch(idHash: string, at: number): void;
  delete(idHash: string): void;
  /** Deletes sessions past their absolute or idle expiry, and any beyond `maxSessions` (oldest first). */
  purge(now: number, idleMs: number, maxSessions: number): void;
  /** Deletes every session opened under another configuration (another access token). */
  revokeOtherFingerprints(fingerprint: string): void;
  /** Stores a new one-time link secret (its hash) and answers the secret. */
  addLink(now: number): string;
  /** Consumes a one-time link secret: true once, false for a used or unknown one. */
  takeLink(secret: string): boolean;
  /** Forgets every unused link (those printed by earlier starts). */
  clearLinks(): void;
}

export function createSessionStore(db: Db): SessionStore {
  const insert = db.prepare(
    `INSERT INTO console_sessions (id_hash, fingerprint, method, created_at, last_seen_at, expires_at)
     VALUES (@id_hash, @fingerprint, @method, @created_at, @last_seen_at, @expires_at)`,
  );
  const get = db.prepare<[string], SessionRow>(
    'SELECT fingerprint, method, created_at, last_seen_at, expires_at FROM console_sessions WHERE id_hash = ?',
  );
  const touch = db.prepare('UPDATE console_sessions SET last_seen_at = ? WHERE id_hash = ?');
  const del = db.prepare('DELETE FROM console_sessions WHERE id_hash = ?');
  const purgeExpired = db.prepare('DELETE FROM console_sessions WHERE expires_at <= ? OR last_seen_at <= ?');
  const purgeExcess = db.prepare(
    `DELETE FROM console_sessions WHERE id_hash IN (
       SELECT id_hash FROM console_sessions ORDER BY last_seen_at DESC LIMIT -1 OFFSET ?)`,
  );
  const revoke = db.prepare('DELETE FROM console_sessions WHERE fingerprint <> ?');
  const addLink = db.prepare('INSERT INTO console_sign_in_links (secret_hash, created_at) VALUES (?, ?)');
  const takeLink = db.prepare('DELETE FROM console_sign_in_links WHERE secret_hash = ?');
  const clearLinks = db.prepare('DELETE FROM console_sign_in_links');

  return {
    insert: (idHash, row) => void insert.run({ id_hash: idHash, ...row }),
    get: (idHash) => get.get(idHash),
    touch: (idHash, at) => void touch.run(at, idHash),
    delete: (idHash) => void del.run(idHash),
    purge(now, idleMs, maxSessions) {
      purgeExpired.run(now, now - idleMs);
      purgeExcess.run(maxSessions);
    },
    revokeOtherFingerprints: (fingerprint) => void revoke.run(fingerprint),
    addLink(now) {
      const secret = newSecret();
      addLink.run(hashSecret(secret), now);
      return secret;
    },
    takeLink: (secret) => takeLink.run(hashSecret(secret)).changes === 1,
    clearLinks: () => void clearLinks.run(),
  };
}

/** The path of a new one-time sign-in link for the console whose store is `db`. */
export function issueSignInLink(db: Db, now = Date.now()): string {
  return `${SIGN_IN_PATH}?once=${createSessionStore(db).addLink(now)}`;
}
