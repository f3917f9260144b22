/**
 * The configuration revisions of `store.ts` in PostgreSQL (DATABASE_URL), shared by every console replica: the
 * same rows, so drift and history read the same whichever replica answers.
 */
import type { Migration } from '../../../node/db';
import type { PgDatabase } from '../storage/postgres';
import {
  BASELINE_STATUSES,
  CONFIG_REVISIONS_KEPT,
  configRevisionOf,
  configSummaryOf,
  type ConfigRevisionStore,
  type ConfigRow,
} from './store';

export const configurationPgMigrations: Migration[] = [
  {
    id: 'configuration-001-revisions',
    sql: `CREATE TABLE config_revisions (
      revision_id BIGSERIAL PRIMARY KEY,
      kind TEXT NOT NULL,
      status TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      completed_at BIGINT,
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

const SUMMARY = `revision_id, kind, status, created_at, completed_at, file, '' AS document, '[]' AS plan_json, counts_json,
  fingerprint, NULL AS report_json, made_by, made_by_kind`;

export function createPgConfigRevisionStore(
  db: PgDatabase,
  clock: () => number = () => Math.floor(Date.now() / 1000),
): ConfigRevisionStore {
  return {
    async begin(i) {
      const created = clock();
      const rows = await db.query<{ revision_id: number }>(
        `INSERT INTO config_revisions (kind, status, created_at, completed_at, file, document, plan_json, counts_json,
           fingerprint, made_by, made_by_kind)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING revision_id`,
        [
          i.kind,
          i.status,
          created,
          i.status === 'applying' ? null : created,
          i.file,
          i.document,
          JSON.stringify(i.plan),
          JSON.stringify(i.counts),
          i.fingerprint,
          i.made_by ?? null,
          i.made_by_kind ?? null,
        ],
      );
      await db.query(
        `DELETE FROM config_revisions WHERE status != 'applying' AND revision_id NOT IN
           (SELECT revision_id FROM config_revisions ORDER BY revision_id DESC LIMIT $1)`,
        [CONFIG_REVISIONS_KEPT],
      );
      return Number(rows[0]!.revision_id);
    },
    async finish(id, status, report) {
      await db.query(
        'UPDATE config_revisions SET status = $1, completed_at = $2, report_json = $3 WHERE revision_id = $4',
        [status, clock(), report ? JSON.stringify(report) : null, id],
      );
    },
    async list({ first, after }) {
      const rows = await db.query<ConfigRow>(
        `SELECT ${SUMMARY} FROM config_revisions WHERE revision_id < $1 ORDER BY revision_id DESC LIMIT $2`,
        [after ?? Number.MAX_SAFE_INTEGER, first + 1],
      );
      const total = Number((await db.query<{ n: number }>('SELECT count(*) AS n FROM config_revisions'))[0]!.n);
      return { items: rows.slice(0, first).map(configSummaryOf), total, has_next_page: rows.length > first };
    },
    async get(id) {
      const rows = await db.query<ConfigRow>('SELECT * FROM config_revisions WHERE revision_id = $1', [id]);
      return rows[0] ? configRevisionOf(rows[0]) : null;
    },
    async baseline() {
      const rows = await db.query<ConfigRow>(
        `SELECT * FROM config_revisions WHERE status = ANY($1) ORDER BY revision_id DESC LIMIT 1`,
        [[...BASELINE_STATUSES]],
      );
      return rows[0] ? configRevisionOf(rows[0]) : null;
    },
  };
}
