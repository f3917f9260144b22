/** The console's own SQLite store (e.g. the history of bulk git-permission changes), in DATA_DIR/console.db. */
import { join } from 'node:path';
import { migrate, openDb, type Db, type Migration } from '../../node/db';
import { gitPermissionConsoleMigrations } from './git-permissions/store';

/** Every console feature's migrations, in order. */
export const consoleMigrations: Migration[] = [...gitPermissionConsoleMigrations];

export function openConsoleStore(dataDir: string): Db {
  const db = openDb(dataDir === ':memory:' ? ':memory:' : join(dataDir, 'console.db'));
  migrate(db, consoleMigrations);
  return db;
}
