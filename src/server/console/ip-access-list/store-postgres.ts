/**
 * The history of IP access list changes in PostgreSQL (DATABASE_URL): the IpAccessListRevisionStore of
 * store.ts, shared by every console replica. `serialize` takes the store's per-set lock (a PostgreSQL
 * lease held for the whole change), so two replicas' applies cannot pass each other's version check.
 */
import type { Migration } from '../../../node/db';
import type { SetLocks } from '../storage/locks';
import type { PgDatabase } from '../storage/postgres';
import {
  DEFAULT_IP_RETENTION,
  IP_LOCK,
  revisionOf,
  summaryOf,
  type IpAccessListRevisionStore,
  type IpRetentionPolicy,
  type Row,
} from './store';

export const ipAccessListPgMigrations: Migration[] = [
  {
    id: 'ip-access-list-console-001-revisions',
    sql: `CREATE TABLE ip_access_list_revisions (
      revision_id BIGSERIAL PRIMARY KEY,
      created_at BIGINT NOT NULL,
      completed_at BIGINT,
      action TEXT NOT NULL,
      status TEXT NOT NULL,
      restored_from BIGINT,
      previous_json TEXT NOT NULL,
      previous_version TEXT NOT NULL,
      previous_count INTEGER NOT NULL,
      result_json TEXT,
      result_version TEXT,
      result_count INTEGER,
      added_json TEXT NOT NULL,
      removed_json TEXT NOT NULL,
      locked_out_json TEXT NOT NULL DEFAULT '[]',
      error TEXT
    );`,
  },
  {
    // Who made each change; revisions of before keep null ("unknown").
    id: 'ip-access-list-console-002-made-by',
    sql: `ALTER TABLE ip_access_list_revisions ADD COLUMN made_by TEXT;
    ALTER TABLE ip_access_list_revisions ADD COLUMN made_by_kind TEXT;`,
  },
  {
    // The list a change aims at, and what reconciliation found (see ReconciledOutcome).
    id: 'ip-access-list-console-003-reconciliation',
    sql: `ALTER TABLE ip_access_list_revisions ADD COLUMN target_json TEXT;
    ALTER TABLE ip_access_list_revisions ADD COLUMN reconciled_outcome TEXT;
    ALTER TABLE ip_access_list_revisions ADD COLUMN reconciled_at BIGINT;`,
  },
];

export function createPgIpAccessListStore(
  db: PgDatabase,
  locks: SetLocks,
  retention: IpRetentionPolicy = DEFAULT_IP_RETENTION,
  clock: () => number = () => Math.floor(Date.now() / 1000),
): IpAccessListRevisionStore {
  const byId = async (id: number) =>
    (await db.query<Row>('SELECT * FROM ip_access_list_revisions WHERE revision_id = $1', [id]))[0];
  return {
    async begin(i) {
      const rows = await db.query<{ revision_id: number }>(
        `INSERT INTO ip_access_list_revisions (created_at, action, status, restored_from, previous_json, previous_version,
           previous_count, added_json, removed_json, locked_out_json, made_by, made_by_kind, target_json)
         VALUES ($1, $2, 'applying', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING revision_id`,
        [
          clock(),
          i.action,
          i.restored_from,
          JSON.stringify(i.previous),
          i.previous_version,
          i.previous.length,
          JSON.stringify(i.added),
          JSON.stringify(i.removed),
          JSON.stringify(i.locked_out),
          i.made_by ?? null,
          i.made_by_kind ?? null,
          i.target ? JSON.stringify(i.target) : null,
        ],
      );
      return rows[0]!.revision_id;
    },
    async finish(id, o) {
      await db.query(
        `UPDATE ip_access_list_revisions SET status = $1, completed_at = $2, result_json = $3, result_version = $4,
           result_count = $5, added_json = coalesce($6, added_json), removed_json = coalesce($7, removed_json), error = $8,
           reconciled_outcome = $10, reconciled_at = $11
         WHERE revision_id = $9 AND status = 'applying'`,
        [
          o.status,
          clock(),
          o.result ? JSON.stringify(o.result) : null,
          o.result_version,
          o.result ? o.result.length : null,
          o.added ? JSON.stringify(o.added) : null,
          o.removed ? JSON.stringify(o.removed) : null,
          o.error ?? null,
          id,
          o.reconciled_outcome ?? null,
          o.reconciled_outcome ? clock() : null,
        ],
      );
      const cutoff = clock() - retention.maxAgeDays * 86_400;
      await db.transaction(async (q) => {
        await q(
          `DELETE FROM ip_access_list_revisions WHERE created_at < $1 AND status != 'applying'
             AND revision_id < (SELECT max(revision_id) FROM ip_access_list_revisions)`,
          [cutoff],
        );
        await q(
          `DELETE FROM ip_access_list_revisions WHERE status != 'applying' AND revision_id NOT IN
             (SELECT revision_id FROM ip_access_list_revisions ORDER BY revision_id DESC LIMIT $1)`,
          [Math.max(1, retention.maxRevisions)],
        );
      });
    },
    async list({ first, after }) {
      const [count] = await db.query<{ n: number }>('SELECT count(*) AS n FROM ip_access_list_revisions');
      const rows = await db.query<Row>(
        'SELECT * FROM ip_access_list_revisions WHERE revision_id < $1 ORDER BY revision_id DESC LIMIT $2',
        [after ?? Number.MAX_SAFE_INTEGER, first + 1],
      );
      return { items: rows.slice(0, first).map(summaryOf), total: count?.n ?? 0, has_next_page: rows.length > first };
    },
    async get(id) {
      const row = await byId(id);
      return row ? revisionOf(row) : null;
    },
    applying: () =>
      db.query<{ revision_id: number; created_at: number }>(
        `SELECT revision_id, created_at FROM ip_access_list_revisions WHERE status = 'applying' ORDER BY revision_id`,
      ),
    async summary(id) {
      const row = await byId(id);
      return row ? summaryOf(row) : null;
    },
    serialize: (work) => locks.run(IP_LOCK[0], IP_LOCK[1], work),
  };
}
