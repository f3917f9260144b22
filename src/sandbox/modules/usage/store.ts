/**
 * The usage tables. Consumption is not a table of invented figures: `acu_ledger` is written by triggers on the
 * sessions table, one row each time a session's `acus_consumed` grows (at the session's `updated_at`, the time
 * of that change), so every daily figure is the sum of the compute units the sessions themselves show, on the
 * billing day they were consumed. A product is derived from where the session runs. Hypervisors, searches and
 * the billing cycles are this module's own rows.
 */
import type { Db, Migration } from '../../../node/db';

/** The product of a session row (`NEW` or a table alias): from its origin. */
const productOf = (s: string) =>
  `CASE WHEN ${s}.origin IN ('cli', 'desktop') THEN 'terminal' WHEN ${s}.origin = 'automation' THEN 'automation' ELSE 'agent' END`;

export const USAGE_MIGRATIONS: Migration[] = [
  {
    id: 'usage-001-ledger',
    sql: `CREATE TABLE acu_ledger (
      entry_id INTEGER PRIMARY KEY AUTOINCREMENT,
      session_id TEXT NOT NULL,
      org_id TEXT NOT NULL,
      user_id TEXT,
      service_user_id TEXT,
      product TEXT NOT NULL,
      at INTEGER NOT NULL,
      acus REAL NOT NULL
    );
    CREATE INDEX acu_ledger_at ON acu_ledger (at);
    CREATE INDEX acu_ledger_org_at ON acu_ledger (org_id, at);
    CREATE INDEX acu_ledger_user_at ON acu_ledger (user_id, at) WHERE user_id IS NOT NULL;
    CREATE INDEX acu_ledger_service_user_at ON acu_ledger (service_user_id, at) WHERE service_user_id IS NOT NULL;
    CREATE TRIGGER acu_ledger_session_insert AFTER INSERT ON sessions WHEN NEW.acus_consumed > 0
    BEGIN
      INSERT INTO acu_ledger (session_id, org_id, user_id, service_user_id, product, at, acus)
      VALUES (NEW.session_id, NEW.org_id, NEW.user_id, NEW.service_user_id, ${productOf('NEW')}, NEW.updated_at, NEW.acus_consumed);
    END;
    CREATE TRIGGER acu_ledger_session_update AFTER UPDATE OF acus_consumed ON sessions
      WHEN NEW.acus_consumed <> OLD.acus_consumed
    BEGIN
      INSERT INTO acu_ledger (session_id, org_id, user_id, service_user_id, product, at, acus)
      VALUES (NEW.session_id, NEW.org_id, NEW.user_id, NEW.service_user_id, ${productOf('NEW')}, NEW.updated_at,
        NEW.acus_consumed - OLD.acus_consumed);
    END;
    CREATE TRIGGER acu_ledger_session_delete AFTER DELETE ON sessions
    BEGIN
      DELETE FROM acu_ledger WHERE session_id = OLD.session_id;
    END;
    CREATE INDEX sessions_updated_usage ON sessions (updated_at);`,
  },
  {
    id: 'usage-002-capacity-searches-cycles',
    sql: `CREATE TABLE hypervisors (
      hypervisor_id TEXT PRIMARY KEY,
      status TEXT NOT NULL,
      cloud_provider_instance_id TEXT,
      created_at INTEGER NOT NULL,
      -- Last heartbeat of a host that stopped reporting (disconnected, terminated); live ones report every few s.
      last_heartbeat INTEGER,
      -- Share of the running sessions this host takes (available, draining) and its own load in percent.
      weight REAL NOT NULL,
      base_load REAL NOT NULL,
      -- What a disconnected host last reported.
      last_utilization REAL NOT NULL DEFAULT 0
    );
    CREATE TABLE searches (
      search_id TEXT PRIMARY KEY,
      org_id TEXT NOT NULL,
      user_id TEXT,
      query TEXT NOT NULL,
      source TEXT,
      result_count INTEGER,
      repositories TEXT NOT NULL DEFAULT '[]',
      created_at INTEGER NOT NULL
    );
    CREATE INDEX searches_created ON searches (created_at, search_id);
    CREATE INDEX searches_org_created ON searches (org_id, created_at, search_id);
    CREATE TABLE billing_cycles (
      after INTEGER PRIMARY KEY,
      before INTEGER NOT NULL
    );`,
  },
];

/** Fills the ledger from the sessions of a store seeded before the ledger existed (one entry per session). */
export function backfillLedger(db: Db): number {
  return db
    .prepare(
      `INSERT INTO acu_ledger (session_id, org_id, user_id, service_user_id, product, at, acus)
       SELECT s.session_id, s.org_id, s.user_id, s.service_user_id, ${productOf('s')}, s.updated_at, s.acus_consumed
       FROM sessions s WHERE s.acus_consumed > 0
         AND NOT EXISTS (SELECT 1 FROM acu_ledger l WHERE l.session_id = s.session_id)`,
    )
    .run().changes;
}

export function getMeta(db: Db, key: string): string | undefined {
  return (db.prepare('SELECT value FROM sandbox_meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.prepare(
    'INSERT INTO sandbox_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  ).run(key, value);
}
