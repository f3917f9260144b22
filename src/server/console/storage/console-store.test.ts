/**
 * The console's own store, the same tests against both implementations: SQLite (':memory:') and PostgreSQL (a
 * throwaway cluster, one database for this file). Then what only a shared store can do: two store objects on
 * one database — two replicas — that see each other's sessions, links, failures and locks, and that migrate
 * once when they start together.
 */
import { LockLost } from './locks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GitPermission } from '../../../api/git-permissions/resources';
import { newTestDatabase } from '../../../test/pg-database';
import { createSignInFailureStore, FREE_FAILURES, TARGET_ATTEMPTS_PER_HOUR } from '../sessions-store';
import { createPgSignInFailureStore } from '../sessions-store-postgres';
import { consoleMigrations, consolePgMigrations } from '../store';
import { openPostgresConsoleStore, openSqliteConsoleStore, type ConsoleStore } from './console-store';

let pgUrl: string;
beforeAll(async () => {
  pgUrl = await newTestDatabase('store');
}, 90_000);

const TABLES = [
  'console_sessions',
  'console_sign_in_links',
  'console_sign_in_failures',
  'git_permission_revisions',
  'console_settings',
  'ip_access_list_revisions',
];

/** The history clock (Unix seconds), moved by the retention test. */
let clock = 1_000_000_000;
const opened: ConsoleStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

const kinds = {
  sqlite: async () =>
    openSqliteConsoleStore(':memory:', { retention: { maxRevisions: 3, maxAgeDays: 30 }, clock: () => clock }),
  postgres: async () => {
    const store = await openPostgresConsoleStore(pgUrl, {
      retention: { maxRevisions: 3, maxAgeDays: 30 },
      clock: () => clock,
    });
    await store.postgres!.query(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY`);
    return store;
  },
};

const perm = (n: number): GitPermission =>
  ({
    git_permission_id: `gp-${n}`,
    git_connection_id: 'conn-1',
    repo_path: `org/repo-${n}`,
    prefix_path: null,
    group_prefix: null,
    read_only: false,
  }) as unknown as GitPermission;

describe.each(Object.entries(kinds))('the %s store', (kind, open) => {
  let store: ConsoleStore;
  const fresh = async () => {
    store = await open();
    opened.push(store);
    return store;
  };

  it('keeps sessions: insert, read, touch, delete', async () => {
    const { sessions } = await fresh();
    expect(store.kind).toBe(kind);
    const row = {
      fingerprint: 'fp',
      method: 'link' as const,
      created_at: 1_000,
      last_seen_at: 1_000,
      expires_at: 9_000,
      name: 'Dana Reyes',
    };
    await sessions.insert('h1', row);
    expect(await sessions.get('h1')).toEqual(row);
    expect(await sessions.get('nope')).toBeUndefined();
    // A session opened without a name reads back as null: no person.
    await sessions.insert('h2', { ...row, name: undefined });
    expect(await sessions.get('h2')).toEqual({ ...row, name: null });
    await sessions.touch('h1', 2_000);
    expect((await sessions.get('h1'))?.last_seen_at).toBe(2_000);
    await sessions.delete('h1');
    expect(await sessions.get('h1')).toBeUndefined();
  });

  it('purges expired, idle and excess sessions, and those of another configuration', async () => {
    const { sessions } = await fresh();
    const at = (t: number, expires = 100_000, fingerprint = 'fp') => ({
      fingerprint,
      method: 'token' as const,
      created_at: t,
      last_seen_at: t,
      expires_at: expires,
    });
    await sessions.insert('expired', at(5_000, 9_000));
    await sessions.insert('idle', at(1_000));
    await sessions.insert('old', at(6_000));
    await sessions.insert('mid', at(7_000));
    await sessions.insert('new', at(8_000));
    await sessions.insert('other', at(8_500, 100_000, 'another-token'));
    await sessions.revokeOtherFingerprints('fp');
    expect(await sessions.get('other')).toBeUndefined();
    // now 10 000, idle limit 5 000 (so last seen at or before 5 000 goes), at most 2 kept.
    await sessions.purge(10_000, 5_000, 2);
    for (const gone of ['expired', 'idle', 'old']) expect(await sessions.get(gone), gone).toBeUndefined();
    expect(await sessions.get('mid')).toBeDefined();
    expect(await sessions.get('new')).toBeDefined();
  });

  it('takes a one-time link once; clearing forgets unused links (all, or older ones)', async () => {
    const { sessions } = await fresh();
    await sessions.addLink('secret-a', 1_000);
    await sessions.addLink('secret-b', 5_000);
    expect(await sessions.takeLink('secret-a')).toEqual({ name: null });
    expect(await sessions.takeLink('secret-a')).toBe(false);
    expect(await sessions.takeLink('unknown')).toBe(false);
    await sessions.addLink('secret-c', 2_000);
    await sessions.clearLinks(3_000);
    expect(await sessions.takeLink('secret-c')).toBe(false);
    await sessions.clearLinks();
    expect(await sessions.takeLink('secret-b')).toBe(false);
  });

  it('binds a one-time link to a name, given back once when the link is taken', async () => {
    const { sessions } = await fresh();
    await sessions.addLink('named', 1_000, 'Dana Reyes');
    await sessions.addLink('anonymous', 1_000, null);
    expect(await sessions.takeLink('named')).toEqual({ name: 'Dana Reyes' });
    expect(await sessions.takeLink('named')).toBe(false);
    expect(await sessions.takeLink('anonymous')).toEqual({ name: null });
  });

  it('records who made each change, a restore included; a revision without one reads as null', async () => {
    const { gitPermissions: g, ipAccessList: ip } = await fresh();
    const base = {
      org_id: 'org-w',
      method: 'replace' as const,
      previous: [perm(1)],
      previous_version: 'v1',
      added: 0,
      removed: 0,
      changed: 1,
    };
    const one = await g.begin({
      ...base,
      action: 'replace',
      restored_from: null,
      made_by: 'Dana Reyes',
      made_by_kind: 'person',
    });
    await g.finish('org-w', one, { status: 'applied', result: [perm(2)], result_version: 'v2' });
    const two = await g.begin({
      ...base,
      action: 'restore',
      restored_from: one,
      made_by: 'access token (script)',
      made_by_kind: 'bearer_token',
    });
    const three = await g.begin({ ...base, action: 'replace', restored_from: null });
    expect((await g.list('org-w', { first: 5 })).items.map((r) => [r.made_by, r.made_by_kind])).toEqual([
      [null, null],
      ['access token (script)', 'bearer_token'],
      ['Dana Reyes', 'person'],
    ]);
    expect(await g.get('org-w', two)).toMatchObject({ action: 'restore', made_by: 'access token (script)' });
    expect(await g.summary('org-w', one)).toMatchObject({ made_by: 'Dana Reyes', made_by_kind: 'person' });
    expect(await g.summary('org-w', three)).toMatchObject({ made_by: null, made_by_kind: null });

    const lists = { previous: ['10.0.0.0/8'], previous_version: 'v1', added: [], removed: [], locked_out: [] };
    const a = await ip.begin({
      ...lists,
      action: 'replace',
      restored_from: null,
      made_by: 'Sam Okafor',
      made_by_kind: 'person',
    });
    await ip.finish(a, { status: 'applied', result: [], result_version: 'v0' });
    const b = await ip.begin({
      ...lists,
      action: 'restore',
      restored_from: a,
      made_by: 'access control off',
      made_by_kind: 'access_control_off',
    });
    const c = await ip.begin({ ...lists, action: 'clear', restored_from: null });
    expect((await ip.list({ first: 5 })).items.map((r) => [r.revision_id, r.made_by, r.made_by_kind])).toEqual([
      [c, null, null],
      [b, 'access control off', 'access_control_off'],
      [a, 'Sam Okafor', 'person'],
    ]);
    expect(await ip.get(a)).toMatchObject({ made_by: 'Sam Okafor', made_by_kind: 'person' });
    expect(await ip.summary(b)).toMatchObject({ action: 'restore', made_by_kind: 'access_control_off' });
  });

  it('counts sign-in failures with exponential backoff, forgets them, and resets on success', async () => {
    const { signInFailures: f } = await fresh();
    for (let i = 0; i < FREE_FAILURES - 1; i++) await f.fail('10.0.0.1', 1_000);
    expect(await f.waitMs('10.0.0.1', 1_000)).toBe(0);
    await f.fail('10.0.0.1', 1_000);
    expect(await f.waitMs('10.0.0.1', 1_000)).toBe(1_000);
    await f.fail('10.0.0.1', 1_500);
    expect(await f.waitMs('10.0.0.1', 1_500)).toBe(2_000);
    expect(await f.waitMs('10.0.0.2', 1_500)).toBe(0);
    // An hour without a failure: counting starts again.
    await f.fail('10.0.0.1', 1_500 + 3_600_000);
    expect(await f.waitMs('10.0.0.1', 1_500 + 3_600_000)).toBe(0);
    await f.reset('10.0.0.1');
    expect(await f.size()).toBe(0);
  });

  it('tracks a bounded number of addresses, never releasing a blocked one (new ones share a row)', async () => {
    await fresh();
    const f =
      kind === 'sqlite' ? createSignInFailureStore(store.sqlite!, 3) : createPgSignInFailureStore(store.postgres!, 3);
    for (const key of ['a', 'b', 'c', 'd']) for (let i = 0; i < FREE_FAILURES; i++) await f.fail(key, 1_000);
    expect(await f.size()).toBe(4);
    expect(await f.waitMs('a', 1_000)).toBeGreaterThan(0);
    expect(await f.waitMs(['d'], 1_000)).toBeGreaterThan(0);
    expect(await f.waitMs('e', 1_000)).toBeGreaterThan(0);
  });

  it('counts an attempt before it is evaluated, on the address and the credential target, and gives it back', async () => {
    const { signInFailures: f } = await fresh();
    const keys = ['10.0.0.9', 'target:access-token'];
    for (let i = 0; i < FREE_FAILURES; i++) expect(await f.attempt(keys, 1_000)).toBe(0);
    expect(await f.attempt(keys, 1_000)).toBe(1_000);
    await f.refund(keys);
    expect(await f.waitMs(keys, 1_000)).toBe(0);
    // The target's budget holds whatever the addresses.
    let counted = FREE_FAILURES - 1; // one given back
    for (let i = 0; i < 80; i++) if ((await f.attempt([`10.1.0.${i}`, 'target:access-token'], 2_000)) === 0) counted++;
    expect(counted).toBe(TARGET_ATTEMPTS_PER_HOUR);
    expect(await f.waitMs('target:access-token', 2_000)).toBe(3_600_000 - 1_000);
  });

  it('numbers revisions per organization and pages them newest first', async () => {
    const { gitPermissions: h } = await fresh();
    const change = async (org: string, restored_from: number | null = null) => {
      const id = await h.begin({
        org_id: org,
        action: restored_from ? 'restore' : 'replace',
        method: 'replace',
        restored_from,
        previous: [perm(1)],
        previous_version: 'v1',
        added: 1,
        removed: 0,
        changed: 0,
      });
      await h.finish(org, id, { status: 'applied', result: [perm(1), perm(2)], result_version: 'v2' });
      return id;
    };
    expect([await change('org-a'), await change('org-a'), await change('org-b'), await change('org-a', 1)]).toEqual([
      1, 2, 1, 3,
    ]);
    const page = await h.list('org-a', { first: 2 });
    expect(page.items.map((r) => r.revision_id)).toEqual([3, 2]);
    expect(page).toMatchObject({ total: 3, has_next_page: true });
    const rest = await h.list('org-a', { first: 2, after: 2 });
    expect(rest.items.map((r) => r.revision_id)).toEqual([1]);
    expect(rest.has_next_page).toBe(false);
    const rev = await h.get('org-a', 3);
    expect(rev).toMatchObject({ revision_id: 3, restored_from: 1, status: 'applied', result_count: 2 });
    expect(rev?.previous).toEqual([perm(1)]);
    expect(rev?.result).toEqual([perm(1), perm(2)]);
    expect(rev).not.toHaveProperty('row_id');
    expect(await h.summary('org-b', 1)).toMatchObject({ revision_id: 1, org_id: 'org-b', previous_count: 1 });
    expect(await h.summary('org-b', 2)).toBeNull();
    expect(await h.get('org-c', 1)).toBeNull();
  });

  it('records a failed change with its error and no result', async () => {
    const { gitPermissions: h } = await fresh();
    const id = await h.begin({
      org_id: 'org-f',
      action: 'clear',
      method: 'clear',
      restored_from: null,
      previous: [perm(3)],
      previous_version: 'v',
      added: 0,
      removed: 1,
      changed: 0,
    });
    expect((await h.summary('org-f', id))?.status).toBe('applying');
    await h.finish('org-f', id, { status: 'failed', result: null, result_version: null, error: 'upstream said no' });
    expect(await h.get('org-f', id)).toMatchObject({ status: 'failed', result: null, error: 'upstream said no' });
  });

  it('keeps at most the configured count and age per organization, never the latest', async () => {
    const { gitPermissions: h } = await fresh();
    clock = 1_000_000_000;
    const change = async (org: string) => {
      const id = await h.begin({
        org_id: org,
        action: 'replace',
        method: 'replace',
        restored_from: null,
        previous: [],
        previous_version: 'v',
        added: 0,
        removed: 0,
        changed: 0,
      });
      await h.finish(org, id, { status: 'applied', result: [], result_version: 'w' });
      return id;
    };
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await change('org-r'));
    await change('org-s');
    expect((await h.list('org-r', { first: 50 })).items.map((r) => r.revision_id)).toEqual(ids.slice(2).reverse());
    clock += 31 * 86_400;
    const latest = await change('org-r');
    expect((await h.list('org-r', { first: 50 })).items.map((r) => r.revision_id)).toEqual([latest]);
    clock += 365 * 86_400;
    expect(await h.prune('org-s')).toBe(0);
    expect((await h.list('org-s', { first: 50 })).total).toBe(1);
  });

  it('keeps the IP access list history, newest first, with what each change added and removed', async () => {
    const { ipAccessList: h } = await fresh();
    const one = await h.begin({
      action: 'replace',
      restored_from: null,
      previous: ['10.0.0.0/8'],
      previous_version: 'v1',
      added: ['192.0.2.0/24'],
      removed: [],
      locked_out: [],
    });
    await h.finish(one, {
      status: 'applied',
      result: ['10.0.0.0/8', '192.0.2.0/24'],
      result_version: 'v2',
      added: ['192.0.2.0/24'],
      removed: [],
    });
    const two = await h.begin({
      action: 'clear',
      restored_from: null,
      previous: ['10.0.0.0/8', '192.0.2.0/24'],
      previous_version: 'v2',
      added: [],
      removed: ['10.0.0.0/8', '192.0.2.0/24'],
      locked_out: ['203.0.113.5'],
    });
    await h.finish(two, { status: 'failed', result: null, result_version: null, error: 'refused' });
    expect([one, two]).toEqual([1, 2]);
    const page = await h.list({ first: 1 });
    expect(page).toMatchObject({ total: 2, has_next_page: true });
    expect(page.items[0]).toMatchObject({
      revision_id: 2,
      status: 'failed',
      locked_out: ['203.0.113.5'],
      error: 'refused',
    });
    expect((await h.list({ first: 5, after: 2 })).items.map((r) => r.revision_id)).toEqual([1]);
    expect(await h.get(1)).toMatchObject({
      previous: ['10.0.0.0/8'],
      result: ['10.0.0.0/8', '192.0.2.0/24'],
      added: ['192.0.2.0/24'],
      result_count: 2,
    });
    expect(await h.summary(3)).toBeNull();
  });

  it('keeps settings as JSON values', async () => {
    const { settings } = await fresh();
    expect(await settings.get('banner')).toBeUndefined();
    await settings.set('banner', { text: 'Maintenance at 18:00', level: 'info' });
    expect(await settings.get('banner')).toEqual({ text: 'Maintenance at 18:00', level: 'info' });
    await settings.set('banner', { text: 'Done' });
    expect(await settings.get('banner')).toEqual({ text: 'Done' });
    await settings.delete('banner');
    expect(await settings.get('banner')).toBeUndefined();
  });

  it('runs changes to one set one after another, and to different sets side by side', async () => {
    const { locks } = await fresh();
    const events: string[] = [];
    const work = (name: string, ms: number) => async () => {
      events.push(`${name}+`);
      await new Promise((r) => setTimeout(r, ms));
      events.push(`${name}-`);
      return name;
    };
    const results = await Promise.all([
      locks.run('git-permissions', 'org-1', work('a', 80)),
      locks.run('git-permissions', 'org-1', work('b', 10)),
      locks.run('git-permissions', 'org-2', work('c', 10)),
    ]);
    expect(results).toEqual(['a', 'b', 'c']);
    // b waits for a; c (another organization) does not.
    expect(events.indexOf('b+')).toBeGreaterThan(events.indexOf('a-'));
    expect(events.indexOf('c+')).toBeLessThan(events.indexOf('a-'));
    // A failing change releases the lock.
    await expect(
      locks.run('git-permissions', 'org-1', async () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await locks.run('git-permissions', 'org-1', async () => 'next')).toBe('next');
  });

  it('reports its health: reachable, with its migrations applied', async () => {
    await fresh();
    const health = await store.health();
    expect(health).toMatchObject({ kind, state: 'ok', unavailable_since: null, error: null });
    expect(health.migrations).toBe((kind === 'sqlite' ? consoleMigrations : consolePgMigrations).length);
  });
});

describe('two replicas on one PostgreSQL database', () => {
  let a: ConsoleStore;
  let b: ConsoleStore;
  beforeAll(async () => {
    [a, b] = await Promise.all([openPostgresConsoleStore(pgUrl), openPostgresConsoleStore(pgUrl)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('migrate once when they start at the same moment', async () => {
    const url = await newTestDatabase('migrate');
    const stores = await Promise.all([1, 2, 3, 4].map(() => openPostgresConsoleStore(url)));
    try {
      const rows = await stores[0]!.postgres!.query<{ id: string }>('SELECT id FROM console_schema_migrations');
      expect(rows.map((r) => r.id).sort()).toEqual(consolePgMigrations.map((m) => m.id).sort());
      for (const s of stores) expect((await s.health()).migrations).toBe(consolePgMigrations.length);
    } finally {
      await Promise.all(stores.map((s) => s.close()));
    }
  });

  it('share sessions and links: a link printed by one is taken once, by whichever replica gets it first', async () => {
    await a.sessions.insert('shared-session', {
      fingerprint: 'fp',
      method: 'token',
      created_at: 1,
      last_seen_at: 1,
      expires_at: Date.now() + 60_000,
    });
    expect(await b.sessions.get('shared-session')).toMatchObject({ fingerprint: 'fp' });
    await b.sessions.delete('shared-session');
    expect(await a.sessions.get('shared-session')).toBeUndefined();

    await a.sessions.addLink('raced-link', Date.now());
    const taken = await Promise.all([a.sessions.takeLink('raced-link'), b.sessions.takeLink('raced-link')]);
    expect(taken.filter(Boolean)).toHaveLength(1);
  });

  it('count sign-in failures together', async () => {
    const now = Date.now();
    for (let i = 0; i < FREE_FAILURES - 1; i++) await (i % 2 ? a : b).signInFailures.fail('192.0.2.7', now);
    expect(await a.signInFailures.waitMs('192.0.2.7', now)).toBe(0);
    // Two at once, from two replicas: both count.
    await Promise.all([a.signInFailures.fail('192.0.2.7', now), b.signInFailures.fail('192.0.2.7', now)]);
    expect(await a.signInFailures.waitMs('192.0.2.7', now)).toBe(2_000);
    expect(await b.signInFailures.waitMs('192.0.2.7', now)).toBe(2_000);
  });

  it('serialize changes to one set across replicas (a lease), not changes to different sets', async () => {
    const events: string[] = [];
    const work = (name: string, ms: number) => async () => {
      events.push(`${name}+`);
      await new Promise((r) => setTimeout(r, ms));
      events.push(`${name}-`);
    };
    const first = a.locks.run('git-permissions', 'org-x', work('a', 300));
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all([
      first,
      b.locks.run('git-permissions', 'org-x', work('b', 10)),
      b.locks.run('git-permissions', 'org-y', work('c', 10)),
      b.locks.run('ip-access-list', 'org-x', work('d', 10)),
    ]);
    expect(events.indexOf('b+')).toBeGreaterThan(events.indexOf('a-'));
    expect(events.indexOf('c+')).toBeLessThan(events.indexOf('a-'));
    expect(events.indexOf('d+')).toBeLessThan(events.indexOf('a-'));
  });

  it('fence a change: a cut connection keeps its lease; a lease that ran out fails the check and frees the set', async () => {
    let taken: Promise<unknown> | undefined;
    const outcome = await a.locks.run('git-permissions', 'org-fence', async (fence) => {
      expect(fence.token).toBeGreaterThan(0);
      // Every connection of the store cut: the lease is a row, not a connection, so it still holds.
      await b.postgres!.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      await fence.check();
      // The lease runs out (as while the database was unreachable for longer than its lifetime): another
      // replica takes the set at once, and this change's next check fails, before it writes anything.
      await b.postgres!.query(
        `UPDATE console_set_leases SET expires_at = 0 WHERE set_key = 'git-permissions:org-fence'`,
      );
      let tookOver = false;
      taken = b.locks.run('git-permissions', 'org-fence', async () => void (tookOver = true));
      await taken;
      expect(tookOver).toBe(true);
      return fence.check().then(
        () => 'still held',
        (err: unknown) => (err instanceof LockLost ? err.reason : 'other'),
      );
    });
    expect(outcome).toBe('lost');
  });

  it('serialize IP access list changes across replicas too', async () => {
    const events: string[] = [];
    const first = a.ipAccessList.serialize(async () => {
      events.push('a+');
      await new Promise((r) => setTimeout(r, 250));
      events.push('a-');
    });
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all([first, b.ipAccessList.serialize(async () => void events.push('b+'))]);
    expect(events).toEqual(['a+', 'a-', 'b+']);
  });
});
