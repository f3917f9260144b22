/**
 * The history of git-permission changes made through the console, in the console's SQLite store (its
 * PostgreSQL twin is store-postgres.ts; both behind the one RevisionStore interface): each
 * revision keeps the complete set as it was before the change (written before anything is applied upstream)
 * and, once applied, the resulting set.
 */
import type { GitPermission, GitPermissionInput } from '../../../api/git-permissions/resources';
import type {
  GitPermissionRevision,
  GitPermissionRevisionSummary,
  GitRevisionAction,
  GitRevisionStatus,
} from '../../../api/console/git-permissions';
import type { MadeBy, MadeByKind } from '../../../api/console/session';
import type { Db, Migration } from '../../../node/db';

export const gitPermissionConsoleMigrations: Migration[] = [
  {
    id: 'git-permissions-console-001-revisions',
    sql: `CREATE TABLE git_permission_revisions (
      revision_id INTEGER PRIMARY KEY AUTOINCREMENT,
      org_id TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      completed_at INTEGER,
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
      error TEXT
    );
    CREATE INDEX git_permission_revisions_org ON git_permission_revisions (org_id, revision_id);`,
  },
  {
    // Revision numbers count per organization (#1, #2, #3 in each), not across the store: the rows keep an
    // internal key, and the numbers already given are renumbered once, in order, within each organization.
    id: 'git-permissions-console-002-per-organization-numbers',
    sql: `CREATE TABLE git_permission_revisions_v2 (
      row_id INTEGER PRIMARY KEY AUTOINCREMENT,
      org_id TEXT NOT NULL,
      revision_id INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      completed_at INTEGER,
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
    );
    INSERT INTO git_permission_revisions_v2 (row_id, org_id, revision_id, created_at, completed_at, action, method,
      status, restored_from, previous_json, previous_version, previous_count, result_json, result_version,
      result_count, added, removed, changed, error)
    SELECT r.revision_id, r.org_id,
      ROW_NUMBER() OVER (PARTITION BY r.org_id ORDER BY r.revision_id),
      r.created_at, r.completed_at, r.action, r.method, r.status,
      CASE WHEN r.restored_from IS NULL THEN NULL ELSE
        (SELECT count(*) FROM git_permission_revisions x WHERE x.org_id = r.org_id AND x.revision_id <= r.restored_from) END,
      r.previous_json, r.previous_version, r.previous_count, r.result_json, r.result_version, r.result_count,
      r.added, r.removed, r.changed, r.error
    FROM git_permission_revisions r;
    DROP TABLE git_permission_revisions;
    ALTER TABLE git_permission_revisions_v2 RENAME TO git_permission_revisions;
    CREATE INDEX git_permission_revisions_org ON git_permission_revisions (org_id, revision_id);`,
  },
  {
    // Who made each change (the signed-in person, or how the change was made). Revisions of before keep null:
    // the history shows them as made by "unknown".
    id: 'git-permissions-console-003-made-by',
    sql: `ALTER TABLE git_permission_revisions ADD COLUMN made_by TEXT;
    ALTER TABLE git_permission_revisions ADD COLUMN made_by_kind TEXT;`,
  },
  {
    // The set a change aims at (so a change left `applying` can be told applied, not applied or partly applied)
    // and what reconciliation found, when it was reconciliation that closed the revision.
    id: 'git-permissions-console-004-reconciliation',
    sql: `ALTER TABLE git_permission_revisions ADD COLUMN target_json TEXT;
    ALTER TABLE git_permission_revisions ADD COLUMN reconciled_outcome TEXT;
    ALTER TABLE git_permission_revisions ADD COLUMN reconciled_at INTEGER;`,
  },
];

/**
 * What reconciliation found for a revision left `applying` by a change that did not finish (its replica died,
 * lost its database or its lock): the set as the change wanted it (`applied`), as it was before (`not_applied`),
 * part of the way (`partly_applied`, per-item changes), or neither (`changed_elsewhere`: changed since by
 * someone else, so what this change did cannot be told).
 */
export type ReconciledOutcome = 'applied' | 'not_applied' | 'partly_applied' | 'changed_elsewhere';

export interface RevisionRow {
  revision_id: number;
  org_id: string;
  created_at: number;
  completed_at: number | null;
  action: GitRevisionAction;
  method: GitPermissionRevisionSummary['method'];
  status: GitRevisionStatus;
  restored_from: number | null;
  previous_json: string;
  previous_version: string;
  previous_count: number;
  result_json: string | null;
  result_version: string | null;
  result_count: number | null;
  added: number;
  removed: number;
  changed: number;
  error: string | null;
  made_by: string | null;
  made_by_kind: MadeByKind | null;
  target_json: string | null;
  reconciled_outcome: ReconciledOutcome | null;
  reconciled_at: number | null;
}

export const SUMMARY_COLUMNS = `revision_id, org_id, created_at, completed_at, action, method, status, restored_from, previous_version,
  previous_count, result_version, result_count, added, removed, changed, error, made_by, made_by_kind, reconciled_outcome,
  reconciled_at`;

export const now = () => Math.floor(Date.now() / 1000);

/**
 * How much history is kept per organization: at most `maxRevisions` revisions and none older than
 * `maxAgeDays`, oldest removed first; the latest revision is always kept, whatever its age.
 */
export interface RetentionPolicy {
  maxRevisions: number;
  maxAgeDays: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { maxRevisions: 200, maxAgeDays: 180 };

export interface BeginRevision {
  org_id: string;
  action: GitRevisionAction;
  method: GitPermissionRevisionSummary['method'];
  restored_from: number | null;
  previous: GitPermission[];
  previous_version: string;
  added: number;
  removed: number;
  changed: number;
  /** Who makes the change (a restore: who restores); unknown (null) when not given. */
  made_by?: MadeBy['made_by'];
  made_by_kind?: MadeBy['made_by_kind'];
  /** The set the change aims at (reconciliation compares the upstream set with it); null: unknown. */
  target?: GitPermissionInput[] | null;
}

export interface FinishRevision {
  status: GitRevisionStatus;
  result: GitPermission[] | null;
  result_version: string | null;
  error?: string | null;
  /** Set when reconciliation, not the change itself, closes the revision. */
  reconciled_outcome?: ReconciledOutcome;
}

export interface RevisionPage {
  items: GitPermissionRevisionSummary[];
  total: number;
  has_next_page: boolean;
}

/** The history of one kind of guarded set, per organization (SQLite here; PostgreSQL in store-postgres.ts). */
export interface RevisionStore {
  /** Stores the previous set of a change about to be applied; answers the revision's number. */
  begin(input: BeginRevision): Promise<number>;
  /** Records how the change ended (a revision still `applying` only), then applies the retention policy. */
  finish(orgId: string, id: number, outcome: FinishRevision): Promise<void>;
  /** Revisions still `applying`, oldest first: candidates for reconciliation. */
  applying(): Promise<Array<{ org_id: string; revision_id: number; created_at: number }>>;
  list(orgId: string, opts: { first: number; after?: number }): Promise<RevisionPage>;
  get(orgId: string, id: number): Promise<GitPermissionRevision | null>;
  summary(orgId: string, id: number): Promise<GitPermissionRevisionSummary | null>;
  /** Applies the retention policy to one organization's history; answers how many revisions went. */
  prune(orgId: string): Promise<number>;
}

/** A stored row as the API answers it: the sets parsed. */
export function revisionOfRow(row: RevisionRow & { row_id?: number }): GitPermissionRevision {
  // row_id is the store's internal key, not part of the answer.
  const { previous_json, result_json, target_json, row_id: _rowId, ...rest } = row;
  return {
    ...rest,
    reconciled_outcome: rest.reconciled_outcome ?? null,
    reconciled_at: rest.reconciled_at ?? null,
    previous: JSON.parse(previous_json) as GitPermission[],
    result: result_json ? (JSON.parse(result_json) as GitPermission[]) : null,
    target: target_json ? (JSON.parse(target_json) as GitPermissionInput[]) : null,
  };
}

export function createRevisionStore(
  db: Db,
  retention: RetentionPolicy = DEFAULT_RETENTION,
  clock: () => number = now,
): RevisionStore {
  const pruneByCount = db.prepare(
    `DELETE FROM git_permission_revisions WHERE org_id = ? AND status != 'applying' AND revision_id NOT IN
       (SELECT revision_id FROM git_permission_revisions WHERE org_id = ? ORDER BY revision_id DESC LIMIT ?)`,
  );
  const pruneByAge = db.prepare(
    `DELETE FROM git_permission_revisions WHERE org_id = ? AND created_at < ? AND status != 'applying' AND revision_id <
       (SELECT max(revision_id) FROM git_permission_revisions WHERE org_id = ?)`,
  );
  // The next number of the organization's history: the latest revision is never pruned, so numbers never repeat.
  const insert = db.prepare(
    `INSERT INTO git_permission_revisions (org_id, revision_id, created_at, action, method, status, restored_from, previous_json, previous_version, previous_count, added, removed, changed, made_by, made_by_kind, target_json)
     VALUES (?, (SELECT coalesce(max(revision_id), 0) + 1 FROM git_permission_revisions WHERE org_id = ?), ?, ?, ?, 'applying', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     RETURNING revision_id`,
  );
  const update = db.prepare(
    `UPDATE git_permission_revisions SET status = ?, completed_at = ?, result_json = ?, result_version = ?, result_count = ?, error = ?,
       reconciled_outcome = ?, reconciled_at = ? WHERE org_id = ? AND revision_id = ? AND status = 'applying'`,
  );
  const applying = db.prepare(
    `SELECT org_id, revision_id, created_at FROM git_permission_revisions WHERE status = 'applying' ORDER BY row_id`,
  );
  const prune = (orgId: string) => {
    const cutoff = clock() - retention.maxAgeDays * 86_400;
    return db.transaction(() => {
      const byAge = pruneByAge.run(orgId, cutoff, orgId).changes;
      const byCount = pruneByCount.run(orgId, orgId, Math.max(1, retention.maxRevisions)).changes;
      return byAge + byCount;
    })();
  };
  return {
    async begin(i) {
      const r = insert.get(
        i.org_id,
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
      ) as { revision_id: number };
      return r.revision_id;
    },
    async finish(orgId, id, o) {
      update.run(
        o.status,
        clock(),
        o.result ? JSON.stringify(o.result) : null,
        o.result_version,
        o.result ? o.result.length : null,
        o.error ?? null,
        o.reconciled_outcome ?? null,
        o.reconciled_outcome ? clock() : null,
        orgId,
        id,
      );
      prune(orgId);
    },
    applying: async () => applying.all() as Array<{ org_id: string; revision_id: number; created_at: number }>,
    prune: async (orgId) => prune(orgId),
    async list(orgId, { first, after }) {
      const total = (
        db.prepare('SELECT count(*) AS n FROM git_permission_revisions WHERE org_id = ?').get(orgId) as { n: number }
      ).n;
      const rows = db
        .prepare(
          `SELECT ${SUMMARY_COLUMNS} FROM git_permission_revisions WHERE org_id = ? ${after !== undefined ? 'AND revision_id < ?' : ''}
           ORDER BY revision_id DESC LIMIT ?`,
        )
        .all(
          ...(after !== undefined ? [orgId, after, first + 1] : [orgId, first + 1]),
        ) as GitPermissionRevisionSummary[];
      return { items: rows.slice(0, first), total, has_next_page: rows.length > first };
    },
    async get(orgId, id) {
      const row = db
        .prepare('SELECT * FROM git_permission_revisions WHERE org_id = ? AND revision_id = ?')
        .get(orgId, id) as RevisionRow | undefined;
      return row ? revisionOfRow(row) : null;
    },
    async summary(orgId, id) {
      return (
        (db
          .prepare(`SELECT ${SUMMARY_COLUMNS} FROM git_permission_revisions WHERE org_id = ? AND revision_id = ?`)
          .get(orgId, id) as GitPermissionRevisionSummary | undefined) ?? null
      );
    },
  };
}
