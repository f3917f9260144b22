/**
 * The history of IP access list changes made through the console. Each revision keeps the list as it was
 * before the change (written before anything is applied upstream) and, once applied, the resulting list, with
 * what the change added and removed.
 *
 * The handlers see only `IpAccessListRevisionStore`, an asynchronous interface, so the console's stores can
 * live elsewhere than SQLite (e.g. PostgreSQL, for several console servers sharing one history):
 * `createSqliteIpAccessListStore` is the implementation on the console's own SQLite file (console.db).
 */
import type {
  IpAccessListRevision,
  IpAccessListRevisionSummary,
  IpRevisionAction,
  IpRevisionStatus,
} from '../../../api/console/ip-access-list';
import type { MadeBy, MadeByKind } from '../../../api/console/session';
import type { Db, Migration } from '../../../node/db';
import type { ReconciledOutcome } from '../git-permissions/store';
import type { Fence, SetLocks } from '../storage/locks';

export const ipAccessListConsoleMigrations: Migration[] = [
  {
    id: 'ip-access-list-console-001-revisions',
    sql: `CREATE TABLE ip_access_list_revisions (
      revision_id INTEGER PRIMARY KEY AUTOINCREMENT,
      created_at INTEGER NOT NULL,
      completed_at INTEGER,
      action TEXT NOT NULL,
      status TEXT NOT NULL,
      restored_from INTEGER,
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
    // Who made each change (the signed-in person, or how it was made); revisions of before keep null ("unknown").
    id: 'ip-access-list-console-002-made-by',
    sql: `ALTER TABLE ip_access_list_revisions ADD COLUMN made_by TEXT;
    ALTER TABLE ip_access_list_revisions ADD COLUMN made_by_kind TEXT;`,
  },
  {
    // The list a change aims at, and what reconciliation found (see ReconciledOutcome).
    id: 'ip-access-list-console-003-reconciliation',
    sql: `ALTER TABLE ip_access_list_revisions ADD COLUMN target_json TEXT;
    ALTER TABLE ip_access_list_revisions ADD COLUMN reconciled_outcome TEXT;
    ALTER TABLE ip_access_list_revisions ADD COLUMN reconciled_at INTEGER;`,
  },
];

export interface IpRevisionBegin {
  action: IpRevisionAction;
  restored_from: number | null;
  previous: string[];
  previous_version: string;
  /** The planned diff (replaced by the actual one when the change is applied). */
  added: string[];
  removed: string[];
  locked_out: string[];
  /** Who makes the change (a restore: who restores); unknown (null) when not given. */
  made_by?: MadeBy['made_by'];
  made_by_kind?: MadeBy['made_by_kind'];
  /** The list the change aims at (reconciliation compares the upstream list with it). */
  target?: string[] | null;
}

export interface IpRevisionOutcome {
  status: Exclude<IpRevisionStatus, 'applying'>;
  result: string[] | null;
  result_version: string | null;
  added?: string[];
  removed?: string[];
  error?: string | null;
  /** Set when reconciliation, not the change itself, closes the revision. */
  reconciled_outcome?: ReconciledOutcome;
}

export interface IpRevisionPageResult {
  items: IpAccessListRevisionSummary[];
  total: number;
  has_next_page: boolean;
}

/** How much history is kept: at most `maxRevisions`, none older than `maxAgeDays` (the latest always stays). */
export interface IpRetentionPolicy {
  maxRevisions: number;
  maxAgeDays: number;
}

export const DEFAULT_IP_RETENTION: IpRetentionPolicy = { maxRevisions: 200, maxAgeDays: 180 };

export interface IpAccessListRevisionStore {
  /** Records a change about to be applied (status `applying`); answers its revision number. */
  begin(input: IpRevisionBegin): Promise<number>;
  /** Records how it ended (a revision still `applying` only), then applies the retention policy. */
  finish(id: number, outcome: IpRevisionOutcome): Promise<void>;
  /** Revisions still `applying`, oldest first: candidates for reconciliation. */
  applying(): Promise<Array<{ revision_id: number; created_at: number }>>;
  /** Newest first; `after` is a revision number (the previous page's `end_cursor`). */
  list(opts: { first: number; after?: number }): Promise<IpRevisionPageResult>;
  get(id: number): Promise<IpAccessListRevision | null>;
  summary(id: number): Promise<IpAccessListRevisionSummary | null>;
  /**
   * Runs changes one after another, so two applies cannot pass each other's version check. In one process a
   * promise chain is enough; a store shared by several console servers takes a lock it shares too (e.g. a
   * PostgreSQL lease around `work`), and hands `work` the fence that proves it still holds it.
   */
  serialize<T>(work: (fence: Fence) => Promise<T>): Promise<T>;
}

/** A revision's row, the same in SQLite and PostgreSQL. */
export interface Row {
  revision_id: number;
  created_at: number;
  completed_at: number | null;
  action: IpRevisionAction;
  status: IpRevisionStatus;
  restored_from: number | null;
  previous_json: string;
  previous_version: string;
  previous_count: number;
  result_json: string | null;
  result_version: string | null;
  result_count: number | null;
  added_json: string;
  removed_json: string;
  locked_out_json: string;
  error: string | null;
  made_by: string | null;
  made_by_kind: MadeByKind | null;
  target_json?: string | null;
  reconciled_outcome?: ReconciledOutcome | null;
  reconciled_at?: number | null;
}

export const strings = (json: string | null): string[] => (json ? (JSON.parse(json) as string[]) : []);

export function summaryOf(r: Row): IpAccessListRevisionSummary {
  return {
    revision_id: r.revision_id,
    created_at: r.created_at,
    completed_at: r.completed_at,
    action: r.action,
    status: r.status,
    restored_from: r.restored_from,
    previous_version: r.previous_version,
    previous_count: r.previous_count,
    result_version: r.result_version,
    result_count: r.result_count,
    added: strings(r.added_json),
    removed: strings(r.removed_json),
    locked_out: strings(r.locked_out_json),
    error: r.error,
    made_by: r.made_by ?? null,
    made_by_kind: r.made_by_kind ?? null,
    reconciled_outcome: r.reconciled_outcome ?? null,
    reconciled_at: r.reconciled_at ?? null,
  };
}

/** A revision as the API answers it: the summary, the previous and resulting lists, and the target. */
export function revisionOf(row: Row): IpAccessListRevision {
  return {
    ...summaryOf(row),
    previous: strings(row.previous_json),
    result: row.result_json ? strings(row.result_json) : null,
    target: row.target_json ? strings(row.target_json) : null,
  };
}

/** The IP access list is enterprise-wide: one set, one lock. */
export const IP_LOCK: readonly [string, string] = ['ip-access-list', 'enterprise'];

export function createSqliteIpAccessListStore(
  db: Db,
  locks: SetLocks,
  retention: IpRetentionPolicy = DEFAULT_IP_RETENTION,
  clock: () => number = () => Math.floor(Date.now() / 1000),
): IpAccessListRevisionStore {
  const insert = db.prepare(
    `INSERT INTO ip_access_list_revisions (created_at, action, status, restored_from, previous_json, previous_version,
       previous_count, added_json, removed_json, locked_out_json, made_by, made_by_kind, target_json)
     VALUES (?, ?, 'applying', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING revision_id`,
  );
  const update = db.prepare(
    `UPDATE ip_access_list_revisions SET status = ?, completed_at = ?, result_json = ?, result_version = ?,
       result_count = ?, added_json = coalesce(?, added_json), removed_json = coalesce(?, removed_json), error = ?,
       reconciled_outcome = ?, reconciled_at = ?
     WHERE revision_id = ? AND status = 'applying'`,
  );
  const applying = db.prepare(
    `SELECT revision_id, created_at FROM ip_access_list_revisions WHERE status = 'applying' ORDER BY revision_id`,
  );
  const byId = db.prepare('SELECT * FROM ip_access_list_revisions WHERE revision_id = ?');
  const pruneByAge = db.prepare(
    `DELETE FROM ip_access_list_revisions WHERE created_at < ? AND status != 'applying'
       AND revision_id < (SELECT max(revision_id) FROM ip_access_list_revisions)`,
  );
  const pruneByCount = db.prepare(
    `DELETE FROM ip_access_list_revisions WHERE status != 'applying' AND revision_id NOT IN
       (SELECT revision_id FROM ip_access_list_revisions ORDER BY revision_id DESC LIMIT ?)`,
  );
  const count = db.prepare('SELECT count(*) AS n FROM ip_access_list_revisions');
  const page = db.prepare(
    'SELECT * FROM ip_access_list_revisions WHERE revision_id < ? ORDER BY revision_id DESC LIMIT ?',
  );

  return {
    async begin(i) {
      const r = insert.get(
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
      ) as { revision_id: number };
      return r.revision_id;
    },
    async finish(id, o) {
      update.run(
        o.status,
        clock(),
        o.result ? JSON.stringify(o.result) : null,
        o.result_version,
        o.result ? o.result.length : null,
        o.added ? JSON.stringify(o.added) : null,
        o.removed ? JSON.stringify(o.removed) : null,
        o.error ?? null,
        o.reconciled_outcome ?? null,
        o.reconciled_outcome ? clock() : null,
        id,
      );
      const cutoff = clock() - retention.maxAgeDays * 86_400;
      db.transaction(() => {
        pruneByAge.run(cutoff);
        pruneByCount.run(Math.max(1, retention.maxRevisions));
      })();
    },
    async list({ first, after }) {
      const total = (count.get() as { n: number }).n;
      const rows = page.all(after ?? Number.MAX_SAFE_INTEGER, first + 1) as Row[];
      return { items: rows.slice(0, first).map(summaryOf), total, has_next_page: rows.length > first };
    },
    async get(id) {
      const row = byId.get(id) as Row | undefined;
      return row ? revisionOf(row) : null;
    },
    applying: async () => applying.all() as Array<{ revision_id: number; created_at: number }>,
    async summary(id) {
      const row = byId.get(id) as Row | undefined;
      return row ? summaryOf(row) : null;
    },
    serialize: (work) => locks.run(IP_LOCK[0], IP_LOCK[1], work),
  };
}
