/**
 * Console activity: one row per write made through the console (proxied to the API or answered by the
 * console's own endpoints): who (subject, name, email, how they got in and the grant that allowed it), when,
 * the operation, its organization, the ids it touched and its outcome. Never a body, a secret value or a
 * credential. Retention is bounded by age and by a row cap. This file: the interface and SQLite; the
 * PostgreSQL twin is `store-postgres.ts`.
 */
import type { Db, Migration } from '../../../node/db';

export const activityMigrations: Migration[] = [
  {
    id: 'activity-001-console-activity',
    sql: `
    CREATE TABLE console_activity (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      at INTEGER NOT NULL,
      subject TEXT,
      name TEXT,
      email TEXT,
      method TEXT NOT NULL,
      grant_text TEXT,
      operation_id TEXT NOT NULL,
      http_method TEXT NOT NULL,
      path TEXT NOT NULL,
      org_id TEXT,
      ids_json TEXT NOT NULL,
      status INTEGER NOT NULL,
      outcome TEXT NOT NULL
    );
    CREATE INDEX console_activity_at ON console_activity (at);
    CREATE INDEX console_activity_org ON console_activity (org_id, at);
  `,
  },
];

/** `succeeded` (2xx/3xx), `failed` (the API or the console answered an error), `refused` (the policy said no). */
export type ActivityOutcome = 'succeeded' | 'failed' | 'refused';

export interface ActivityInput {
  /** Epoch milliseconds. */
  at: number;
  subject: string | null;
  name: string | null;
  email: string | null;
  /** How the request got in: oidc, link, token, bearer, off. */
  method: string;
  /** The policy's grant that allowed it (e.g. `group console-admins → admin`); null when refused. */
  grant: string | null;
  operation_id: string;
  http_method: string;
  /** The path, without its query. */
  path: string;
  org_id: string | null;
  /** The ids it touched: path parameters, and the created resource's id from the answer. */
  ids: Record<string, string>;
  status: number;
  outcome: ActivityOutcome;
}

export interface ActivityRow extends ActivityInput {
  id: number;
}

export interface ActivityFilter {
  /** Part of the name, email or subject (case-insensitive). */
  person?: string;
  operation?: string;
  org_id?: string;
  /** Epoch milliseconds, inclusive / exclusive. */
  from?: number;
  to?: number;
  outcome?: ActivityOutcome;
  /** Rows with a smaller id (the next page, newest first). */
  before?: number;
}

export interface ActivityRetention {
  maxAgeDays: number;
  maxRows: number;
}

export const DEFAULT_ACTIVITY_RETENTION: ActivityRetention = { maxAgeDays: 365, maxRows: 100_000 };

export interface ActivityStore {
  record(entry: ActivityInput): Promise<void>;
  /** Newest first, at most `limit`. */
  list(filter: ActivityFilter, limit: number): Promise<ActivityRow[]>;
  /** Applies the retention now (done every so many records too). */
  prune(now: number): Promise<void>;
}

/** Records between two retention passes. */
export const PRUNE_EVERY = 100;

interface StoredActivity extends Omit<ActivityInput, 'ids' | 'grant'> {
  id: number;
  grant_text: string | null;
  ids_json: string;
}

export function activityFromStored(r: StoredActivity): ActivityRow {
  let ids: Record<string, string> = {};
  try {
    ids = JSON.parse(r.ids_json) as Record<string, string>;
  } catch {
    // A damaged row still lists, without its ids.
  }
  const { grant_text, ids_json: _ids, ...rest } = r;
  return { ...rest, id: Number(r.id), at: Number(r.at), status: Number(r.status), grant: grant_text, ids };
}

/** The filter as SQL conditions with `?` placeholders (PostgreSQL numbers them). */
export function activityWhere(f: ActivityFilter): { sql: string; args: Array<string | number> } {
  const conds: string[] = [];
  const args: Array<string | number> = [];
  if (f.person) {
    conds.push(
      "(lower(coalesce(name, '')) LIKE ? OR lower(coalesce(email, '')) LIKE ? OR lower(coalesce(subject, '')) LIKE ?)",
    );
    const like = `%${f.person.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    args.push(like, like, like);
  }
  if (f.operation) {
    conds.push('operation_id = ?');
    args.push(f.operation);
  }
  if (f.org_id) {
    conds.push('org_id = ?');
    args.push(f.org_id);
  }
  if (f.from !== undefined) {
    conds.push('at >= ?');
    args.push(f.from);
  }
  if (f.to !== undefined) {
    conds.push('at < ?');
    args.push(f.to);
  }
  if (f.outcome) {
    conds.push('outcome = ?');
    args.push(f.outcome);
  }
  if (f.before !== undefined) {
    conds.push('id < ?');
    args.push(f.before);
  }
  return { sql: conds.length ? `WHERE ${conds.join(' AND ')}` : '', args };
}

export function createSqliteActivityStore(
  db: Db,
  retention: ActivityRetention = DEFAULT_ACTIVITY_RETENTION,
): ActivityStore {
  const insert = db.prepare(
    `INSERT INTO console_activity (at, subject, name, email, method, grant_text, operation_id, http_method, path,
       org_id, ids_json, status, outcome)
     VALUES (@at, @subject, @name, @email, @method, @grant_text, @operation_id, @http_method, @path, @org_id,
       @ids_json, @status, @outcome)`,
  );
  const dropOld = db.prepare('DELETE FROM console_activity WHERE at < ?');
  const dropExcess = db.prepare(
    'DELETE FROM console_activity WHERE id IN (SELECT id FROM console_activity ORDER BY id DESC LIMIT -1 OFFSET ?)',
  );
  let sincePrune = 0;
  const prune = (now: number) => {
    dropOld.run(now - retention.maxAgeDays * 86_400_000);
    dropExcess.run(retention.maxRows);
  };
  return {
    async record(e) {
      const { grant, ids, ...rest } = e;
      insert.run({ ...rest, grant_text: grant, ids_json: JSON.stringify(ids) });
      if (++sincePrune >= PRUNE_EVERY) {
        sincePrune = 0;
        prune(e.at);
      }
    },
    async list(filter, limit) {
      const w = activityWhere(filter);
      const rows = db
        .prepare<Array<string | number>, StoredActivity>(
          `SELECT * FROM console_activity ${w.sql.replace(/LIKE \?/g, "LIKE ? ESCAPE '\\'")} ORDER BY id DESC LIMIT ?`,
        )
        .all(...w.args, limit);
      return rows.map(activityFromStored);
    },
    prune: async (now) => prune(now),
  };
}
