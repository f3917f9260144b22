/**
 * The revisions of the enterprise's configuration: every document applied (or live state exported) through
 * the console, with its plan, its report and who made it — the baseline drift is measured from and the history
 * the Configuration screen lists. SQLite here, PostgreSQL in `store-postgres.ts`, one interface.
 *
 * A revision never holds a secret's value: documents name environment variables, plans and reports say only
 * that a secret is created. Retention keeps the newest CONFIG_REVISIONS_KEPT.
 */
import type {
  ConfigChange,
  ConfigCounts,
  ConfigReport,
  ConfigRevision,
  ConfigRevisionStatus,
  ConfigRevisionSummary,
} from '../../../api/console/configuration';
import type { MadeBy } from '../../../api/console/session';
import type { Db, Migration } from '../../../node/db';

/** Revisions kept (the newest; an apply under way is never dropped). */
export const CONFIG_REVISIONS_KEPT = 500;

export const configurationMigrations: Migration[] = [
  {
    id: 'configuration-001-revisions',
    sql: `CREATE TABLE config_revisions (
      revision_id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL,
      status TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      completed_at INTEGER,
      file TEXT NOT NULL,
      document TEXT NOT NULL,
      plan_json TEXT NOT NULL,
      counts_json TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      report_json TEXT,
      made_by TEXT,
      made_by_kind TEXT
    );`,
  },
];

export interface ConfigRevisionBegin extends MadeBy {
  kind: 'apply' | 'export';
  status: ConfigRevisionStatus;
  file: string;
  document: string;
  plan: ConfigChange[];
  counts: ConfigCounts;
  fingerprint: string;
}

export interface ConfigRevisionStore {
  begin(input: ConfigRevisionBegin): Promise<number>;
  finish(id: number, status: ConfigRevisionStatus, report: ConfigReport | null): Promise<void>;
  list(page: {
    first: number;
    after?: number;
  }): Promise<{ items: ConfigRevisionSummary[]; total: number; has_next_page: boolean }>;
  get(id: number): Promise<ConfigRevision | null>;
  /** The newest revision live state should match: applied (even partly) or exported. */
  baseline(): Promise<ConfigRevision | null>;
}

export interface ConfigRow {
  revision_id: number;
  kind: string;
  status: string;
  created_at: number;
  completed_at: number | null;
  file: string;
  document: string;
  plan_json: string;
  counts_json: string;
  fingerprint: string;
  report_json: string | null;
  made_by: string | null;
  made_by_kind: string | null;
}

export function configSummaryOf(r: ConfigRow): ConfigRevisionSummary {
  return {
    revision_id: Number(r.revision_id),
    kind: r.kind as ConfigRevisionSummary['kind'],
    status: r.status as ConfigRevisionStatus,
    created_at: Number(r.created_at),
    completed_at: r.completed_at === null ? null : Number(r.completed_at),
    file: r.file,
    counts: JSON.parse(r.counts_json) as ConfigCounts,
    fingerprint: r.fingerprint,
    made_by: r.made_by,
    made_by_kind: r.made_by_kind as ConfigRevisionSummary['made_by_kind'],
  };
}

export function configRevisionOf(r: ConfigRow): ConfigRevision {
  return {
    ...configSummaryOf(r),
    document: r.document,
    plan: JSON.parse(r.plan_json) as ConfigChange[],
    report: r.report_json ? (JSON.parse(r.report_json) as ConfigReport) : null,
  };
}

export const BASELINE_STATUSES = ['applied', 'partial', 'recorded'] as const;
const SUMMARY = `revision_id, kind, status, created_at, completed_at, file, '' AS document, '[]' AS plan_json, counts_json,
  fingerprint, NULL AS report_json, made_by, made_by_kind`;
const now = () => Math.floor(Date.now() / 1000);

export function createSqliteConfigRevisionStore(db: Db, clock: () => number = now): ConfigRevisionStore {
  const insert = db.prepare(
    `INSERT INTO config_revisions (kind, status, created_at, completed_at, file, document, plan_json, counts_json, fingerprint, made_by, made_by_kind)
     VALUES (@kind, @status, @created_at, @completed_at, @file, @document, @plan_json, @counts_json, @fingerprint, @made_by, @made_by_kind)`,
  );
  const byId = db.prepare<[number], ConfigRow>('SELECT * FROM config_revisions WHERE revision_id = ?');
  return {
    async begin(i) {
      const created = clock();
      const r = insert.run({
        kind: i.kind,
        status: i.status,
        created_at: created,
        completed_at: i.status === 'applying' ? null : created,
        file: i.file,
        document: i.document,
        plan_json: JSON.stringify(i.plan),
        counts_json: JSON.stringify(i.counts),
        fingerprint: i.fingerprint,
        made_by: i.made_by ?? null,
        made_by_kind: i.made_by_kind ?? null,
      });
      db.prepare(
        `DELETE FROM config_revisions WHERE status != 'applying' AND revision_id NOT IN
           (SELECT revision_id FROM config_revisions ORDER BY revision_id DESC LIMIT ?)`,
      ).run(CONFIG_REVISIONS_KEPT);
      return Number(r.lastInsertRowid);
    },
    async finish(id, status, report) {
      db.prepare('UPDATE config_revisions SET status = ?, completed_at = ?, report_json = ? WHERE revision_id = ?').run(
        status,
        clock(),
        report ? JSON.stringify(report) : null,
        id,
      );
    },
    async list({ first, after }) {
      const rows = db
        .prepare<[number, number], ConfigRow>(
          `SELECT ${SUMMARY} FROM config_revisions WHERE revision_id < ? ORDER BY revision_id DESC LIMIT ?`,
        )
        .all(after ?? Number.MAX_SAFE_INTEGER, first + 1);
      const total = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM config_revisions').get()!.n;
      return { items: rows.slice(0, first).map(configSummaryOf), total, has_next_page: rows.length > first };
    },
    async get(id) {
      const row = byId.get(id);
      return row ? configRevisionOf(row) : null;
    },
    async baseline() {
      const row = db
        .prepare<[], ConfigRow>(
          `SELECT * FROM config_revisions WHERE status IN (${BASELINE_STATUSES.map((s) => `'${s}'`).join(', ')})
           ORDER BY revision_id DESC LIMIT 1`,
        )
        .get();
      return row ? configRevisionOf(row) : null;
    },
  };
}
