/** The sandbox's SQLite store: opening it and applying each module's schema migrations once, in order. */
import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export type Db = Database.Database;

export interface Migration {
  /** Unique and stable: `<module>-<nnn>-<what>`. Never edit an applied migration; add a new one. */
  id: string;
  sql: string;
}

/**
 * Opens (creating) a store. Its directory is created readable by this user only (0700) and the files are
 * 0600: they hold history and sessions that are nobody else's business on a shared host.
 */
export function openDb(path: string): Db {
  if (path !== ':memory:') {
    const dir = dirname(path);
    if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
    else if ((statSync(dir).mode & 0o077) !== 0 && statSync(dir).uid === process.getuid?.()) chmodSync(dir, 0o700);
  }
  const db = new Database(path);
  if (path !== ':memory:') {
    // SQLite gives its -wal and -shm files the mode of the database file.
    for (const f of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(f)) chmodSync(f, 0o600);
  }
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  return db;
}

/** An in-memory store holding a copy of `image` (a `Database#serialize()` of another store). */
export function openDbFrom(image: Buffer): Db {
  const db = new Database(image);
  db.pragma('foreign_keys = ON');
  return db;
}

export function migrate(db: Db, migrations: readonly Migration[]): string[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`);
  const applied = new Set(
    db
      .prepare<[], { id: string }>('SELECT id FROM schema_migrations')
      .all()
      .map((r) => r.id),
  );
  const ran: string[] = [];
  const record = db.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)');
  for (const m of migrations) {
    if (applied.has(m.id)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.id, Math.floor(Date.now() / 1000));
    })();
    ran.push(m.id);
  }
  return ran;
}
