/**
 * The history of git-permission changes in PostgreSQL (DATABASE_URL): the RevisionStore of store.ts, shared by
 * every console replica, so each change appears once whichever replica made it, numbered per organization.
 */
import type { GitPermissionRevisionSummary } from '../../../api/console/git-permissions';
import type { Migration } from '../../../node/db';
import type { PgDatabase } from '../storage/postgres';
import {
  DEFAULT_RETENTION,
  now,
  revisionOfRow,
  SUMMARY_COLUMNS,
  type RetentionPolicy,
  type RevisionRow,
  type RevisionStore,
} from './store';

export const gitPermissionPgMigrations: Migration[] = [
  {
    id: 'git-permissions-console-001-revisions',
    sql: `CREATE TABLE git_permission_revisions (
      row_id BIGSERIAL PRIMARY KEY,
      org_id TEXT NOT NULL,
      revision_id INTEGER NOT NULL,
      created_at BIGINT NOT NULL,
      completed_at BIGINT,
      action TEXT NOT NULL,
      method TEXT NOT NULL,
      status TEXT NOT NULL,
      restored_from INTEGER,
      previous_json TEXT NOT NULL,
      previous_version TEXT NOT NULL,
      previous_count INTEGER NOT NULL,
      result_json TEXT,
      result_version TEXT,
      result_count INTEGER,
      added INTEGER NOT NULL DEFAULT 0,
      removed INTEGER NOT NULL DEFAULT 0,
      changed INTEGER NOT NULL DEFAULT 0,
      error TEXT,
      UNIQUE (org_id, revision_id)
    );`,
  },
  {
    // Who made each change; revisions of before keep null ("unknown").
    id: 'git-permissions-console-002-made-by',
    sql: `ALTER TABLE git_permission_revisions ADD COLUMN made_by TEXT;
    ALTER TABLE git_permission_revisions ADD COLUMN made_by_kind TEXT;`,
  },
  {
    // The set a change aims at, and what reconciliation found (see ReconciledOutcome).
    id: 'git-permissions-console-003-reconciliation',
    sql: `ALTER TABLE git_permission_revisions ADD COLUMN target_json TEXT;
    ALTER TABLE git_permission_revisions ADD COLUMN reconciled_outcome TEXT;
    ALTER TABLE git_permission_revisions ADD COLUMN reconciled_at BIGINT;
    CREATE INDEX git_permission_revisions_applying ON git_permission_revisions (row_id) WHERE status = 'applying';`,
  },
];

export function createPgRevisionStore(
  db: PgDatabase,
  retention: RetentionPolicy = DEFAULT_RETENTION,
  clock: () => number = now,
): RevisionStore {
  const prune = (orgId: string) =>
    db.transaction(async (q) => {
      const cutoff = clock() - retention.maxAgeDays * 86_400;
      const byAge = await q(
        `DELETE FROM git_permission_revisions WHERE org_id = $1 AND created_at < $2 AND status != 'applying' AND revision_id <
           (SELECT max(revision_id) FROM git_permission_revisions WHERE org_id = $1) RETURNING 1`,
        [orgId, cutoff],
      );
      const byCount = await q(
        `DELETE FROM git_permission_revisions WHERE org_id = $1 AND status != 'applying' AND revision_id NOT IN
           (SELECT revision_id FROM git_permission_revisions WHERE org_id = $1 ORDER BY revision_id DESC LIMIT $2) RETURNING 1`,
        [orgId, Math.max(1, retention.maxRevisions)],
      );
      return byAge.length + byCount.length;
    });
  return {
    async begin(i) {
      // Changes to one organization are serialized (SetLocks), so max + 1 is free; the unique key guards it anyway.
      const rows = await db.query<{ revision_id: number }>(
        `INSERT INTO git_permission_revisions (org_id, revision_id, created_at, action, method, status, restored_from,
           previous_json, previous_version, previous_count, added, removed, changed, made_by, made_by_kind, target_json)
         VALUES ($1, (SELECT coalesce(max(revision_id), 0) + 1 FROM git_permission_revisions WHERE org_id = $1), $2, $3, $4,
           'applying', $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
         RETURNING revision_id`,
        [
          i.org_id,
          clock(),
          i.action,
          i.method,
          i.restored_from,
          JSON.stringify(i.previous),
          i.previous_version,
          i.previous.length,
          i.added,
          i.removed,
          i.changed,
          i.made_by ?? null,
          i.made_by_kind ?? null,
          i.target ? JSON.stringify(i.target) : null,
        ],
      );
      return rows[0]!.revision_id;
    },
    async finish(orgId, id, o) {
      await db.query(
        `UPDATE git_permission_revisions SET status = $1, completed_at = $2, result_json = $3, result_version = $4,
           result_count = $5, error = $6, reconciled_outcome = $9, reconciled_at = $10
         WHERE org_id = $7 AND revision_id = $8 AND status = 'applying'`,
        [
          o.status,
          clock(),
          o.result ? JSON.stringify(o.result) : null,
          o.result_version,
          o.result ? o.result.length : null,
          o.error ?? null,
          orgId,
          id,
          o.reconciled_outcome ?? null,
          o.reconciled_outcome ? clock() : null,
        ],
      );
      await prune(orgId);
    },
    applying: () =>
      db.query<{ org_id: string; revision_id: number; created_at: number }>(
        `SELECT org_id, revision_id, created_at FROM git_permission_revisions WHERE status = 'applying' ORDER BY row_id`,
      ),
    prune,
    async list(orgId, { first, after }) {
      const [count] = await db.query<{ n: number }>(
        'SELECT count(*) AS n FROM git_permission_revisions WHERE org_id = $1',
        [orgId],
      );
      const rows = await db.query<GitPermissionRevisionSummary>(
        after !== undefined
          ? `SELECT ${SUMMARY_COLUMNS} FROM git_permission_revisions WHERE org_id = $1 AND revision_id < $2 ORDER BY revision_id DESC LIMIT $3`
          : `SELECT ${SUMMARY_COLUMNS} FROM git_permission_revisions WHERE org_id = $1 ORDER BY revision_id DESC LIMIT $2`,
        after !== undefined ? [orgId, after, first + 1] : [orgId, first + 1],
      );
      return { items: rows.slice(0, first), total: count?.n ?? 0, has_next_page: rows.length > first };
    },
    async get(orgId, id) {
      const rows = await db.query<RevisionRow & { row_id?: number }>(
        'SELECT * FROM git_permission_revisions WHERE org_id = $1 AND revision_id = $2',
        [orgId, id],
      );
      return rows[0] ? revisionOfRow(rows[0]) : null;
    },
    async summary(orgId, id) {
      const rows = await db.query<GitPermissionRevisionSummary>(
        `SELECT ${SUMMARY_COLUMNS} FROM git_permission_revisions WHERE org_id = $1 AND revision_id = $2`,
        [orgId, id],
      );
      return rows[0] ?? null;
    },
  };
}
