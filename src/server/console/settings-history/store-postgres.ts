/**
 * The settings history in PostgreSQL (DATABASE_URL): the SettingsHistoryStore of store.ts, shared by every
 * console replica; `serialize` takes the store's per-set lease, so two replicas' changes of one setting run one
 * after the other.
 */
import type { Migration } from '../../../node/db';
import type { SetLocks } from '../storage/locks';
import type { PgDatabase } from '../storage/postgres';
import {
  DEFAULT_SETTINGS_RETENTION,
  json,
  listFilter,
  LOCK_KIND,
  type SettingRow,
  type SettingsHistoryStore,
  type SettingsRetention,
} from './store';

export const settingsHistoryPgMigrations: Migration[] = [
  {
    id: 'settings-history-001',
    sql: `CREATE TABLE settings_history (
      revision_id BIGSERIAL PRIMARY KEY,
      kind TEXT NOT NULL,
      setting_key TEXT NOT NULL,
      label TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      completed_at BIGINT,
      origin TEXT NOT NULL,
      action TEXT NOT NULL,
      status TEXT NOT NULL,
      restored_from BIGINT,
      before_json TEXT NOT NULL,
      after_json TEXT,
      names_json TEXT NOT NULL DEFAULT '{}',
      error TEXT,
      made_by TEXT,
      made_by_kind TEXT
    );
    CREATE INDEX settings_history_setting ON settings_history (kind, setting_key, revision_id);`,
  },
];

/** `?` placeholders as PostgreSQL's `$n`, from `start`. */
const numbered = (sql: string, start = 1) => {
  let n = start - 1;
  return sql.replace(/\?/g, () => `$${++n}`);
};

const INSERT = `INSERT INTO settings_history (kind, setting_key, label, created_at, completed_at, origin, action, status,
  restored_from, before_json, after_json, names_json, made_by, made_by_kind)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING revision_id`;

export function createPgSettingsHistoryStore(
  db: PgDatabase,
  locks: SetLocks,
  retention: SettingsRetention = DEFAULT_SETTINGS_RETENTION,
  clock: () => number = () => Math.floor(Date.now() / 1000),
): SettingsHistoryStore {
  const insert = async (values: unknown[]) => (await db.query<{ revision_id: number }>(INSERT, values))[0]!.revision_id;
  return {
    begin: (i) =>
      insert([
        i.kind,
        i.key,
        i.label,
        clock(),
        null,
        'console',
        i.action,
        'applying',
        i.restored_from ?? null,
        JSON.stringify(i.before),
        null,
        JSON.stringify(i.names),
        i.made_by ?? null,
        i.made_by_kind ?? null,
      ]),
    async finish(id, o) {
      await db.query(
        `UPDATE settings_history SET status = $1, completed_at = $2, after_json = $3, label = coalesce($4, label),
           names_json = coalesce($5, names_json), error = $6 WHERE revision_id = $7 AND status = 'applying'`,
        [
          o.status,
          clock(),
          json(o.after),
          o.label ?? null,
          o.names ? JSON.stringify(o.names) : null,
          o.error ?? null,
          id,
        ],
      );
      await db.transaction(async (q) => {
        await q(
          `DELETE FROM settings_history WHERE created_at < $1 AND status != 'applying' AND revision_id NOT IN
             (SELECT max(revision_id) FROM settings_history GROUP BY kind, setting_key)`,
          [clock() - retention.maxAgeDays * 86_400],
        );
        await q(
          `DELETE FROM settings_history WHERE status != 'applying' AND revision_id NOT IN
             (SELECT revision_id FROM settings_history ORDER BY revision_id DESC LIMIT $1)`,
          [Math.max(1, retention.maxRows)],
        );
      });
    },
    async discard(id) {
      await db.query(`DELETE FROM settings_history WHERE revision_id = $1 AND status = 'applying'`, [id]);
    },
    recordGap(g) {
      const now = clock();
      return insert([
        g.kind,
        g.key,
        g.label,
        now,
        now,
        'outside',
        'outside',
        'applied',
        null,
        JSON.stringify(g.before),
        JSON.stringify(g.after),
        JSON.stringify(g.names),
        null,
        null,
      ]);
    },
    async latest(kind, key) {
      const rows = await db.query<SettingRow>(
        `SELECT * FROM settings_history WHERE kind = $1 AND setting_key = $2 AND after_json IS NOT NULL
           AND status != 'applying' ORDER BY revision_id DESC LIMIT 1`,
        [kind, key],
      );
      return rows[0] ?? null;
    },
    async list(q) {
      const { where, params } = listFilter(q);
      const [count] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM settings_history WHERE ${numbered(where)}`,
        params,
      );
      const rows = await db.query<SettingRow>(
        `SELECT * FROM settings_history WHERE ${numbered(where)} AND revision_id < $${params.length + 1}
           ORDER BY revision_id DESC LIMIT $${params.length + 2}`,
        [...params, q.after ?? Number.MAX_SAFE_INTEGER, q.first + 1],
      );
      return { rows: rows.slice(0, q.first), total: count?.n ?? 0, has_next_page: rows.length > q.first };
    },
    async get(id) {
      return (await db.query<SettingRow>('SELECT * FROM settings_history WHERE revision_id = $1', [id]))[0] ?? null;
    },
    serialize: (lock, work) => locks.run(LOCK_KIND, lock, work),
  };
}
