/**
 * The console's own settings: named JSON values in its store (console.db, or PostgreSQL with DATABASE_URL, shared
 * by every replica). Configuration from the environment stays in `config.ts`; this is for what the console
 * changes at run time and every replica must agree on.
 */
import type { Db, Migration } from '../../../node/db';
import type { PgDatabase } from './postgres';

export const settingsMigrations: Migration[] = [
  {
    id: 'settings-001',
    sql: `CREATE TABLE console_settings (key TEXT PRIMARY KEY, value_json TEXT NOT NULL, updated_at INTEGER NOT NULL);`,
  },
];

export const settingsPgMigrations: Migration[] = [
  {
    id: 'settings-001',
    sql: `CREATE TABLE console_settings (key TEXT PRIMARY KEY, value_json TEXT NOT NULL, updated_at BIGINT NOT NULL);`,
  },
];

export interface SettingsStore {
  get<T = unknown>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

const nowS = () => Math.floor(Date.now() / 1000);

export function createSettingsStore(db: Db): SettingsStore {
  const get = db.prepare<[string], { value_json: string }>('SELECT value_json FROM console_settings WHERE key = ?');
  const set = db.prepare(
    `INSERT INTO console_settings (key, value_json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
  );
  const del = db.prepare('DELETE FROM console_settings WHERE key = ?');
  return {
    async get<T>(key: string) {
      const row = get.get(key);
      return row ? (JSON.parse(row.value_json) as T) : undefined;
    },
    set: async (key, value) => void set.run(key, JSON.stringify(value), nowS()),
    delete: async (key) => void del.run(key),
  };
}

export function createPgSettingsStore(db: PgDatabase): SettingsStore {
  return {
    async get<T>(key: string) {
      const rows = await db.query<{ value_json: string }>('SELECT value_json FROM console_settings WHERE key = $1', [
        key,
      ]);
      return rows[0] ? (JSON.parse(rows[0].value_json) as T) : undefined;
    },
    async set(key, value) {
      await db.query(
        `INSERT INTO console_settings (key, value_json, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
        [key, JSON.stringify(value), nowS()],
      );
    },
    async delete(key) {
      await db.query('DELETE FROM console_settings WHERE key = $1', [key]);
    },
  };
}
