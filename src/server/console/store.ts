/** The console's own SQLite store (e.g. the history of bulk git-permission changes), in DATA_DIR/console.db. */
import { join } from 'node:path';
import { migrate, openDb, type Db, type Migration } from '../../node/db';
import { gitPermissionConsoleMigrations } from './git-permissions/store';
import { ipAccessListConsoleMigrations } from './ip-access-list/store';
import { gitPermissionPgMigrations } from './git-permissions/store-postgres';
import { sessionMigrations } from './sessions-store';
import { sessionPgMigrations } from './sessions-store-postgres';
import { settingsMigrations, settingsPgMigrations } from './storage/settings';
import { ipAccessListPgMigrations } from './ip-access-list/store-postgres';
import { leaseMigrations } from './storage/locks';
import { capacitySampleMigrations, capacitySamplePgMigrations } from './capacity-samples/store';
import { alertMigrations, alertPgMigrations } from './alerts/store';
import { settingsHistoryMigrations } from './settings-history/store';
import { settingsHistoryPgMigrations } from './settings-history/store-postgres';
import { activityMigrations } from './activity/store';
import { activityPgMigrations } from './activity/store-postgres';
import { configurationMigrations } from './configuration/store';
import { configurationPgMigrations } from './configuration/store-postgres';

/** Every console feature's migrations, in order. */
export const consoleMigrations: Migration[] = [
  ...gitPermissionConsoleMigrations,
  ...ipAccessListConsoleMigrations,
  ...sessionMigrations,
  ...settingsMigrations,
  ...activityMigrations,
  ...settingsHistoryMigrations,
  ...alertMigrations,
  ...configurationMigrations,
  ...capacitySampleMigrations,
];

/**
 * The same for PostgreSQL (DATABASE_URL; `storage/console-store.ts` opens either): each feature's tables in
 * PostgreSQL's dialect, applied at start under an advisory lock.
 */
export const consolePgMigrations: Migration[] = [
  ...gitPermissionPgMigrations,
  ...ipAccessListPgMigrations,
  ...sessionPgMigrations,
  ...settingsPgMigrations,
  ...leaseMigrations,
  ...activityPgMigrations,
  ...settingsHistoryPgMigrations,
  ...alertPgMigrations,
  ...configurationPgMigrations,
  ...capacitySamplePgMigrations,
];

export function openConsoleStore(dataDir: string): Db {
  const db = openDb(dataDir === ':memory:' ? ':memory:' : join(dataDir, 'console.db'));
  migrate(db, consoleMigrations);
  return db;
}
