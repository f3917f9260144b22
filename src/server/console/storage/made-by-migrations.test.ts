/**
 * The migrations that taught the console's store who made each change keep what was there: a store written
 * before them (sessions, an unused one-time link, git-permission and IP access list revisions), migrated, still
 * signs the session in and serves the old revisions with `made_by` null (the history's "unknown"); new ones
 * record their author. Once on SQLite, once on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDb } from '../../../node/db';
import { newTestDatabase } from '../../../test/pg-database';
import { hashSecret } from '../sessions-store';
import { consoleMigrations, consolePgMigrations } from '../store';
import { createPgDatabase, migratePg } from './postgres';
import { openPostgresConsoleStore, sqliteConsoleStore, type ConsoleStore } from './console-store';

/** The migrations this change added: everything before them is the store as it was. */
const NEW = new Set([
  'access-003-names',
  'git-permissions-console-003-made-by', // SQLite
  'git-permissions-console-002-made-by', // PostgreSQL
  'ip-access-list-console-002-made-by',
]);
const before = <T extends { id: string }>(list: readonly T[]) => list.filter((m) => !NEW.has(m.id));

/** Rows as a store of before wrote them (no name, no made_by), in either dialect ($n placeholders or ?). */
const OLD_ROWS: Array<[string, unknown[]]> = [
  [
    `INSERT INTO console_sessions (id_hash, fingerprint, method, created_at, last_seen_at, expires_at)
     VALUES ($1, 'fp', 'token', 1, 1, 9000000000000)`,
    [hashSecret('old-session')],
  ],
  ['INSERT INTO console_sign_in_links (secret_hash, created_at) VALUES ($1, 1)', [hashSecret('old-link')]],
  [
    `INSERT INTO git_permission_revisions (org_id, revision_id, created_at, action, method, status, restored_from,
       previous_json, previous_version, previous_count, added, removed, changed)
     VALUES ('org-old', 1, 1, 'replace', 'replace', 'applied', NULL, '[]', 'v', 0, 0, 0, 0)`,
    [],
  ],
  [
    `INSERT INTO ip_access_list_revisions (created_at, action, status, restored_from, previous_json, previous_version,
       previous_count, added_json, removed_json)
     VALUES (1, 'replace', 'applied', NULL, '[]', 'v', 0, '[]', '[]')`,
    [],
  ],
];

async function expectMigratedStore(store: ConsoleStore) {
  // The session and the link of before still work, without a person.
  expect(await store.sessions.get(hashSecret('old-session'))).toMatchObject({ fingerprint: 'fp', name: null });
  expect(await store.sessions.takeLink('old-link')).toEqual({ name: null });
  // Old revisions: nobody known.
  expect(await store.gitPermissions.summary('org-old', 1)).toMatchObject({ made_by: null, made_by_kind: null });
  expect(await store.ipAccessList.summary(1)).toMatchObject({ made_by: null, made_by_kind: null });
  // New ones: their author.
  const id = await store.gitPermissions.begin({
    org_id: 'org-old',
    action: 'restore',
    method: 'replace',
    restored_from: 1,
    previous: [],
    previous_version: 'v',
    added: 0,
    removed: 0,
    changed: 0,
    made_by: 'Dana Reyes',
    made_by_kind: 'person',
  });
  expect(id).toBe(2);
  expect((await store.gitPermissions.list('org-old', { first: 5 })).items.map((r) => r.made_by)).toEqual([
    'Dana Reyes',
    null,
  ]);
}

describe('SQLite', () => {
  it('migrates a store of before: old sessions and links still work, old revisions read as made by nobody known', async () => {
    const db = openDb(':memory:');
    migrate(db, before(consoleMigrations));
    for (const [sql, params] of OLD_ROWS) db.prepare(sql.replace(/\$\d/g, '?')).run(...params);
    expect(migrate(db, consoleMigrations)).toEqual(consoleMigrations.filter((m) => NEW.has(m.id)).map((m) => m.id));
    const store = sqliteConsoleStore(db);
    try {
      await expectMigratedStore(store);
    } finally {
      await store.close();
    }
  });
});

describe('PostgreSQL', () => {
  let url: string;
  beforeAll(async () => {
    url = await newTestDatabase('madeby');
  }, 90_000);
  let store: ConsoleStore | undefined;
  afterAll(async () => {
    await store?.close();
  });

  it('migrates a store of before: old sessions and links still work, old revisions read as made by nobody known', async () => {
    const db = createPgDatabase(url);
    try {
      await migratePg(db, before(consolePgMigrations));
      for (const [sql, params] of OLD_ROWS) await db.query(sql, params);
    } finally {
      await db.close();
    }
    store = await openPostgresConsoleStore(url);
    await expectMigratedStore(store);
    const ids = await store.postgres!.query<{ id: string }>('SELECT id FROM console_schema_migrations');
    expect(ids.map((r) => r.id)).toEqual(expect.arrayContaining(consolePgMigrations.map((m) => m.id)));
  });
});
