/**
 * The history of the settings changed through the console (organizations, ACU limits, org group limits, tags,
 * roles, IdP group roles): one row per change of one setting, with the value before (written before anything
 * is applied upstream) and after, who made it, and gaps — values found changed elsewhere.
 *
 * The handlers see only `SettingsHistoryStore`; `createSqliteSettingsHistoryStore` keeps it in console.db, and
 * `store-postgres.ts` in PostgreSQL for replicas sharing one history.
 */
import type { SettingKind, SettingValue } from '../../../api/console/settings-history';
import type { MadeBy, MadeByKind } from '../../../api/console/session';
import type { Db, Migration } from '../../../node/db';
import type { Fence, SetLocks } from '../storage/locks';

const TABLE = `CREATE TABLE settings_history (
      revision_id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL,
      setting_key TEXT NOT NULL,
      label TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      completed_at INTEGER,
      origin TEXT NOT NULL,
      action TEXT NOT NULL,
      status TEXT NOT NULL,
      restored_from INTEGER,
      before_json TEXT NOT NULL,
      after_json TEXT,
      names_json TEXT NOT NULL DEFAULT '{}',
      error TEXT,
      made_by TEXT,
      made_by_kind TEXT
    );
    CREATE INDEX settings_history_setting ON settings_history (kind, setting_key, revision_id);`;

export const settingsHistoryMigrations: Migration[] = [{ id: 'settings-history-001', sql: TABLE }];

/** A row, the same in SQLite and PostgreSQL. `after_json` null: not known (yet); the text `null`: gone. */
export interface SettingRow {
  revision_id: number;
  kind: SettingKind;
  setting_key: string;
  label: string;
  created_at: number;
  completed_at: number | null;
  origin: 'console' | 'outside';
  action: string;
  status: 'applying' | 'applied' | 'failed';
  restored_from: number | null;
  before_json: string;
  after_json: string | null;
  names_json: string;
  error: string | null;
  made_by: string | null;
  made_by_kind: MadeByKind | null;
}

export interface SettingBegin {
  kind: SettingKind;
  key: string;
  label: string;
  action: string;
  before: SettingValue;
  names: Record<string, string>;
  restored_from?: number | null;
  made_by?: MadeBy['made_by'];
  made_by_kind?: MadeBy['made_by_kind'];
}

export interface SettingOutcome {
  status: 'applied' | 'failed';
  /** The value after; undefined when it could not be read. */
  after?: SettingValue;
  label?: string;
  names?: Record<string, string>;
  error?: string | null;
}

/** A gap: the value found differs from the last one recorded. */
export interface SettingGap {
  kind: SettingKind;
  key: string;
  label: string;
  before: SettingValue;
  after: SettingValue;
  names: Record<string, string>;
}

export interface SettingsListQuery {
  kinds?: readonly SettingKind[];
  key?: string;
  key_prefix?: string;
  first: number;
  after?: number;
}

export interface SettingsHistoryStore {
  begin(input: SettingBegin): Promise<number>;
  finish(id: number, outcome: SettingOutcome): Promise<void>;
  /** Forgets a change that turned out to change nothing (still `applying` only). */
  discard(id: number): Promise<void>;
  recordGap(gap: SettingGap): Promise<number>;
  /** The newest entry of one setting whose value after is known (a gap, or a change that ended). */
  latest(kind: SettingKind, key: string): Promise<SettingRow | null>;
  list(q: SettingsListQuery): Promise<{ rows: SettingRow[]; total: number; has_next_page: boolean }>;
  get(id: number): Promise<SettingRow | null>;
  /** Runs `work` while no other change holding the same lock runs (in every replica with PostgreSQL). */
  serialize<T>(lock: string, work: (fence: Fence) => Promise<T>): Promise<T>;
}

/** How much history is kept: rows younger than `maxAgeDays`, at most `maxRows` (the newest of each setting stays). */
export interface SettingsRetention {
  maxRows: number;
  maxAgeDays: number;
}
export const DEFAULT_SETTINGS_RETENTION: SettingsRetention = { maxRows: 20_000, maxAgeDays: 365 };

export const LOCK_KIND = 'settings';

export const json = (v: SettingValue | undefined) => (v === undefined ? null : JSON.stringify(v));

/** The WHERE clause of a list, with `?` placeholders (PostgreSQL renumbers them). */
export function listFilter(q: SettingsListQuery): { where: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (q.kinds && q.kinds.length > 0) {
    parts.push(`kind IN (${q.kinds.map(() => '?').join(', ')})`);
    params.push(...q.kinds);
  }
  if (q.key !== undefined) {
    parts.push('setting_key = ?');
    params.push(q.key);
  }
  if (q.key_prefix !== undefined) {
    // A prefix match without LIKE's wildcards.
    parts.push('substr(setting_key, 1, ?) = ?');
    params.push(q.key_prefix.length, q.key_prefix);
  }
  return { where: parts.length ? parts.join(' AND ') : '1 = 1', params };
}

export function createSqliteSettingsHistoryStore(
  db: Db,
  locks: SetLocks,
  retention: SettingsRetention = DEFAULT_SETTINGS_RETENTION,
  clock: () => number = () => Math.floor(Date.now() / 1000),
): SettingsHistoryStore {
  const insert = db.prepare(
    `INSERT INTO settings_history (kind, setting_key, label, created_at, completed_at, origin, action, status,
       restored_from, before_json, after_json, names_json, made_by, made_by_kind)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING revision_id`,
  );
  const update = db.prepare(
    `UPDATE settings_history SET status = ?, completed_at = ?, after_json = ?, label = coalesce(?, label),
       names_json = coalesce(?, names_json), error = ? WHERE revision_id = ? AND status = 'applying'`,
  );
  const latest = db.prepare(
    `SELECT * FROM settings_history WHERE kind = ? AND setting_key = ? AND after_json IS NOT NULL
       AND status != 'applying' ORDER BY revision_id DESC LIMIT 1`,
  );
  const byId = db.prepare('SELECT * FROM settings_history WHERE revision_id = ?');
  const discard = db.prepare(`DELETE FROM settings_history WHERE revision_id = ? AND status = 'applying'`);
  const pruneByAge = db.prepare(
    `DELETE FROM settings_history WHERE created_at < ? AND status != 'applying' AND revision_id NOT IN
       (SELECT max(revision_id) FROM settings_history GROUP BY kind, setting_key)`,
  );
  const pruneByCount = db.prepare(
    `DELETE FROM settings_history WHERE status != 'applying' AND revision_id NOT IN
       (SELECT revision_id FROM settings_history ORDER BY revision_id DESC LIMIT ?)`,
  );

  const prune = () => {
    db.transaction(() => {
      pruneByAge.run(clock() - retention.maxAgeDays * 86_400);
      pruneByCount.run(Math.max(1, retention.maxRows));
    })();
  };

  return {
    async begin(i) {
      const r = insert.get(
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
      ) as { revision_id: number };
      return r.revision_id;
    },
    async finish(id, o) {
      update.run(
        o.status,
        clock(),
        json(o.after),
        o.label ?? null,
        o.names ? JSON.stringify(o.names) : null,
        o.error ?? null,
        id,
      );
      prune();
    },
    async discard(id) {
      discard.run(id);
    },
    async recordGap(g) {
      const now = clock();
      const r = insert.get(
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
      ) as { revision_id: number };
      return r.revision_id;
    },
    async latest(kind, key) {
      return (latest.get(kind, key) as SettingRow | undefined) ?? null;
    },
    async list(q) {
      const { where, params } = listFilter(q);
      const total = (
        db.prepare(`SELECT count(*) AS n FROM settings_history WHERE ${where}`).get(...params) as { n: number }
      ).n;
      const rows = db
        .prepare(`SELECT * FROM settings_history WHERE ${where} AND revision_id < ? ORDER BY revision_id DESC LIMIT ?`)
        .all(...params, q.after ?? Number.MAX_SAFE_INTEGER, q.first + 1) as SettingRow[];
      return { rows: rows.slice(0, q.first), total, has_next_page: rows.length > q.first };
    },
    async get(id) {
      return (byId.get(id) as SettingRow | undefined) ?? null;
    },
    serialize: (lock, work) => locks.run(LOCK_KIND, lock, work),
  };
}
