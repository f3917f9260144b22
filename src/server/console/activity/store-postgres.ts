/** Console activity in PostgreSQL (DATABASE_URL): the same interface as SQLite, shared by every replica. */
import type { Migration } from '../../../node/db';
import type { PgDatabase } from '../storage/postgres';
import {
  activityFromStored,
  activityWhere,
  DEFAULT_ACTIVITY_RETENTION,
  PRUNE_EVERY,
  type ActivityRetention,
  type ActivityStore,
} from './store';

export const activityPgMigrations: Migration[] = [
  {
    id: 'activity-001-console-activity',
    sql: `
    CREATE TABLE console_activity (
      id BIGSERIAL PRIMARY KEY,
      at BIGINT NOT NULL,
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

/** `?` placeholders numbered for PostgreSQL. */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

export function createPgActivityStore(
  db: PgDatabase,
  retention: ActivityRetention = DEFAULT_ACTIVITY_RETENTION,
): ActivityStore {
  let sincePrune = 0;
  const prune = async (now: number) => {
    await db.query('DELETE FROM console_activity WHERE at < $1', [now - retention.maxAgeDays * 86_400_000]);
    await db.query(
      'DELETE FROM console_activity WHERE id IN (SELECT id FROM console_activity ORDER BY id DESC OFFSET $1)',
      [retention.maxRows],
    );
  };
  return {
    async record(e) {
      await db.query(
        `INSERT INTO console_activity (at, subject, name, email, method, grant_text, operation_id, http_method, path,
           org_id, ids_json, status, outcome)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          e.at,
          e.subject,
          e.name,
          e.email,
          e.method,
          e.grant,
          e.operation_id,
          e.http_method,
          e.path,
          e.org_id,
          JSON.stringify(e.ids),
          e.status,
          e.outcome,
        ],
      );
      if (++sincePrune >= PRUNE_EVERY) {
        sincePrune = 0;
        await prune(e.at);
      }
    },
    async list(filter, limit) {
      const w = activityWhere(filter);
      const rows = await db.query<Parameters<typeof activityFromStored>[0]>(
        numbered(`SELECT * FROM console_activity ${w.sql} ORDER BY id DESC LIMIT ?`),
        [...w.args, limit],
      );
      return rows.map(activityFromStored);
    },
    prune,
  };
}
