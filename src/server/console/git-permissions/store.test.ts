import { describe, expect, it } from 'vitest';
import { migrate, openDb } from '../../../node/db';
import { createRevisionStore, gitPermissionConsoleMigrations } from './store';

const change = async (
  store: ReturnType<typeof createRevisionStore>,
  org: string,
  restored_from: number | null = null,
) => {
  const id = await store.begin({
    org_id: org,
    action: restored_from ? 'restore' : 'replace',
    method: 'replace',
    restored_from,
    previous: [],
    previous_version: 'v',
    added: 0,
    removed: 0,
    changed: 0,
  });
  await store.finish(org, id, { status: 'applied', result: [], result_version: 'w' });
  return id;
};

describe('revision numbers', () => {
  it('count per organization: #1, #2, #3 in each, whatever the others do', async () => {
    const db = openDb(':memory:');
    migrate(db, gitPermissionConsoleMigrations);
    const store = createRevisionStore(db);
    const a = [await change(store, 'org-a'), await change(store, 'org-a')];
    const b = [await change(store, 'org-b')];
    a.push(await change(store, 'org-a', 1));
    b.push(await change(store, 'org-b'));
    expect(a).toEqual([1, 2, 3]);
    expect(b).toEqual([1, 2]);
    expect(await store.summary('org-a', 3)).toMatchObject({ revision_id: 3, restored_from: 1, status: 'applied' });
    expect(await store.summary('org-b', 3)).toBeNull();
    db.close();
  });

  it('a store written with store-wide numbers is renumbered once, in order, within each organization', async () => {
    const db = openDb(':memory:');
    migrate(db, gitPermissionConsoleMigrations.slice(0, 1));
    const insert = db.prepare(
      `INSERT INTO git_permission_revisions (org_id, created_at, action, method, status, restored_from, previous_json, previous_version, previous_count)
       VALUES (?, 1, ?, 'replace', 'applied', ?, '[]', 'v', 0)`,
    );
    insert.run('org-a', 'replace', null); // 1 → a#1
    insert.run('org-b', 'replace', null); // 2 → b#1
    insert.run('org-a', 'replace', null); // 3 → a#2
    insert.run('org-a', 'restore', 1); // 4 → a#3, restored from a#1
    migrate(db, gitPermissionConsoleMigrations);
    const store = createRevisionStore(db);
    expect((await store.list('org-a', { first: 10 })).items.map((r) => [r.revision_id, r.restored_from])).toEqual([
      [3, 1],
      [2, null],
      [1, null],
    ]);
    expect((await store.list('org-b', { first: 10 })).items.map((r) => r.revision_id)).toEqual([1]);
    // New revisions go on from there.
    expect(await change(store, 'org-a')).toBe(4);
    expect(await change(store, 'org-b')).toBe(2);
    db.close();
  });
});
