/**
 * Guarded changes of settings with a history (`/console/settings/...`): organizations, ACU limits, org group
 * limits, allowed tags, and the roles of members, service users and IdP groups. A change:
 *   1. takes the setting's lock (`../storage/locks.ts`), so two changes of one setting run one after the other,
 *      in every replica when the store is PostgreSQL;
 *   2. reads the live value and, when it differs from the last one recorded, records a gap — "changed outside
 *      the console" — with that difference;
 *   3. records the value before, with who makes the change (`../actor.ts`), then applies it upstream after
 *      proving the lock is still held;
 *   4. reads the value after and records it (or the failure, with the value then). A change that changed
 *      nothing leaves no entry.
 * Restore applies a value of an entry again through the same steps, where the API allows it (a deleted
 * organization cannot come back); the history list also compares the newest entries' settings with the API
 * now, and shows a difference as a gap found just now.
 */
import {
  sameSetting,
  settingChanges,
  type SettingKind,
  type SettingRevision,
  type SettingValue,
} from '../../../api/console/settings-history';
import type { MadeBy } from '../../../api/console/session';
import { HttpProblem } from '../../../node/problem-writer';
import type { Redactor } from '../../redact';
import { actorOf } from '../actor';
import type { ConsoleHandlers, ConsoleInput } from '../mount';
import { LockLost, notAppliedForStore, type Fence } from '../storage/locks';
import { StoreUnavailable } from '../storage/postgres';
import { UpstreamProblem, type UpstreamClient } from '../upstream-client';
import { parseRoleKey, restoreRefusal, roleKey, settingsAccess, type SettingsAccess, type Snapshot } from './settings';
import type { SettingRow, SettingsHistoryStore } from './store';

export interface SettingsHistoryDeps {
  upstream: UpstreamClient;
  redactor: Redactor;
  store: SettingsHistoryStore;
  /** How many settings of a history page are compared with the API now (gaps found on reading). */
  liveChecks?: number;
}

interface Ref {
  kind: SettingKind;
  key: string;
}

const parse = (text: string | null): SettingValue | undefined =>
  text === null ? undefined : (JSON.parse(text) as SettingValue);

/** The lock of a setting: everything of one organization shares one, so its changes never interleave. */
function lockOf(ref: Ref): string {
  if (ref.kind === 'organization' || ref.kind === 'org-tags' || (ref.kind === 'acu-limit' && ref.key !== 'enterprise'))
    return `org:${ref.key}`;
  return `${ref.kind}:${ref.key}`;
}

export function revisionOf(row: SettingRow, current?: SettingValue): SettingRevision {
  const before = parse(row.before_json) ?? null;
  const after = parse(row.after_json);
  return {
    revision_id: row.revision_id,
    kind: row.kind,
    key: row.setting_key,
    label: row.label,
    created_at: row.created_at,
    origin: row.origin,
    action: row.action,
    status: row.status,
    restored_from: row.restored_from,
    before,
    after: after ?? null,
    after_known: after !== undefined,
    changes: after === undefined ? [] : settingChanges(before, after),
    names: JSON.parse(row.names_json) as Record<string, string>,
    error: row.error,
    restore_before: restorable(row.kind, row.setting_key, before, current),
    restore_after: restorable(row.kind, row.setting_key, after, current),
    made_by: row.made_by,
    made_by_kind: row.made_by_kind,
  };
}

function restorable(kind: SettingKind, key: string, target: SettingValue | undefined, current?: SettingValue) {
  const reason = restoreRefusal(kind, key, target, current);
  return { allowed: reason === null, reason };
}

interface Guarded<T> {
  refs: Ref[];
  action: string;
  by: MadeBy;
  restoredFrom?: number | null;
  access: SettingsAccess;
  apply: (before: Snapshot[]) => Promise<T>;
}

/** Records the gap between the last value recorded and `found`, when there is one. */
async function noteGap(store: SettingsHistoryStore, ref: Ref, found: Snapshot): Promise<number | null> {
  const last = await store.latest(ref.kind, ref.key);
  if (!last) return null;
  const recorded = parse(last.after_json) ?? null;
  if (sameSetting(recorded, found.value)) return null;
  return store.recordGap({
    ...ref,
    label: found.label,
    before: recorded,
    after: found.value,
    names: { ...(JSON.parse(last.names_json) as Record<string, string>), ...found.names },
  });
}

/**
 * Applies the change of entry `id` once the lock is proven held. A lost lock or a refusal by the console writes
 * nothing (the entry fails or is dropped); an upstream failure is recorded with the value then.
 */
async function applyFenced<T>(
  deps: SettingsHistoryDeps,
  g: Guarded<T>,
  fence: Fence,
  id: number,
  befores: Snapshot[],
): Promise<T> {
  const { store } = deps;
  const primary = g.refs[0]!;
  const first = befores[0]!;
  try {
    await fence.check();
    return await g.apply(befores);
  } catch (err) {
    if (err instanceof LockLost) {
      await store.finish(id, { status: 'failed', error: `Not applied: ${err.message}` }).catch(() => undefined);
      throw new HttpProblem(
        503,
        `The change was stopped before writing because ${err.message}. Nothing was applied; try again.`,
        { title: 'Service Unavailable', reason: 'lock_lost', applied: 'none' },
        { 'retry-after': '5' },
      );
    }
    if (err instanceof HttpProblem) {
      // Refused by the console (or a name in use) before anything was written: nothing to record.
      await store.discard(id);
      throw err;
    }
    const now = await g.access.read(primary.kind, primary.key).catch(() => undefined);
    await store.finish(id, {
      status: 'failed',
      after: now?.value,
      names: now ? { ...first.names, ...now.names } : undefined,
      error: deps.redactor.redact(err instanceof Error ? err.message : 'unknown error'),
    });
    throw err;
  }
}

/**
 * Reads every setting after the change and records what changed: the primary's entry `id` (dropped when
 * nothing changed), and an entry of its own for each other setting that changed with it. Answers the entries.
 */
async function recordAfters<T>(store: SettingsHistoryStore, g: Guarded<T>, id: number, befores: Snapshot[]) {
  const recorded: number[] = [];
  const afters = await Promise.all(g.refs.map((r) => g.access.read(r.kind, r.key).catch(() => undefined)));
  for (const [i, ref] of g.refs.entries()) {
    const before = befores[i]!;
    const after = afters[i];
    const changed = after === undefined || !sameSetting(before.value, after.value);
    const names = { ...before.names, ...after?.names };
    if (i === 0) {
      if (changed) {
        await store.finish(id, { status: 'applied', after: after?.value, label: after?.label, names });
        recorded.push(id);
      } else await store.discard(id);
    } else if (changed) {
      const other = await store.begin({
        ...ref,
        label: before.label,
        action: g.action,
        before: before.value,
        names,
        ...g.by,
      });
      await store.finish(other, { status: 'applied', after: after?.value, label: after?.label, names });
      recorded.push(other);
    }
  }
  return recorded;
}

/** One guarded change of `refs` (the first is the one the change is about; the others may change with it). */
function guardedChanges(deps: SettingsHistoryDeps) {
  const { store } = deps;
  const serialize = <T>(lock: string, work: (fence: Fence) => Promise<T>): Promise<T> =>
    store.serialize(lock, work).catch((err: unknown) => {
      throw err instanceof StoreUnavailable ? notAppliedForStore(err) : err;
    });
  return async function guarded<T>(g: Guarded<T>) {
    const [primary] = g.refs;
    if (!primary) throw new Error('a guarded change needs a setting');
    return serialize(lockOf(primary), async (fence) => {
      const befores = await Promise.all(g.refs.map((r) => g.access.read(r.kind, r.key)));
      const recorded: number[] = [];
      for (const [i, ref] of g.refs.entries()) {
        const gap = await noteGap(store, ref, befores[i]!);
        if (gap !== null) recorded.push(gap);
      }
      const first = befores[0]!;
      const id = await store.begin({
        ...primary,
        label: first.label,
        action: g.action,
        before: first.value,
        names: first.names,
        restored_from: g.restoredFrom ?? null,
        ...g.by,
      });
      const result = await applyFenced(deps, g, fence, id, befores);
      recorded.push(...(await recordAfters(store, g, id, befores)));
      const rows = await Promise.all(recorded.map((r) => store.get(r)));
      const revisions = rows.filter((r): r is SettingRow => r !== null).map((r) => revisionOf(r));
      return { result: result ?? null, revisions, unchanged: !revisions.some((r) => r.origin === 'console') };
    });
  };
}
type Guard = ReturnType<typeof guardedChanges>;

/** The API's 409 for a name in use, on the form's Name field. */
async function nameTaken<T>(name: string | null | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof UpstreamProblem && err.status === 409 && name) {
      const msg = `An organization named “${name.trim()}” already exists`;
      throw new HttpProblem(
        409,
        `${msg}. Organization names are unique in the enterprise (compared without case): choose another name.`,
        {
          reason: 'name_taken',
          errors: [{ loc: ['body', 'name'], msg, type: 'name_taken' }],
        },
      );
    }
    throw err;
  }
}

/** A new organization: created, then its settings recorded as created (its ACU limit when it has one). */
async function createOrganization(
  deps: SettingsHistoryDeps,
  { body, signal, c }: ConsoleInput<'console.settings.organizations.create'>,
) {
  const { upstream, store } = deps;
  const access = settingsAccess(upstream, signal);
  const org = await nameTaken(body.name, () => upstream.call('organizations.create', { body, signal }));
  const by = actorOf(c);
  const revisions: SettingRevision[] = [];
  for (const kind of ['organization', 'acu-limit'] as const) {
    const after = await access.read(kind, org.org_id).catch(() => undefined);
    if (kind === 'acu-limit' && (after?.value as { cycle_acu_limit?: unknown } | null)?.cycle_acu_limit == null)
      continue;
    const id = await store.begin({
      kind,
      key: org.org_id,
      label: org.name,
      action: 'create',
      before: null,
      names: { [org.org_id]: org.name },
      ...by,
    });
    await store.finish(id, { status: 'applied', after: after?.value, label: after?.label, names: after?.names });
    const row = await store.get(id);
    if (row) revisions.push(revisionOf(row));
  }
  return { result: org, revisions, unchanged: false };
}

function changeOrgTags(
  deps: SettingsHistoryDeps,
  guarded: Guard,
  { params, body, signal, c }: ConsoleInput<'console.settings.orgTags.change'>,
) {
  const { upstream } = deps;
  const access = settingsAccess(upstream, signal);
  const p = { org_id: params.org_id };
  return guarded({
    refs: [{ kind: 'org-tags', key: params.org_id }],
    action: body.mode === 'default' ? (body.tag === null ? 'clear-default' : 'set-default') : body.mode,
    by: actorOf(c),
    access,
    apply: async ([before]) => {
      if (before!.value === null) throw new HttpProblem(404, `Organization ${params.org_id} was not found`);
      switch (body.mode) {
        case 'append':
          return upstream.call('organizations.tags.append', { params: p, body: { tags: body.tags }, signal });
        case 'replace':
          return upstream.call('organizations.tags.replace', { params: p, body: { tags: body.tags }, signal });
        case 'clear':
          return upstream.call('organizations.tags.clear', { params: p, signal });
        case 'remove': {
          // `…/tags/default` is the default tag's path: a tag named "default" goes by replacing the list.
          if (body.tag !== 'default')
            return upstream.call('organizations.tags.remove', { params: { ...p, tag: body.tag }, signal });
          const tags = (before!.value as { tags: string[] }).tags.filter((t) => t !== 'default');
          return upstream.call('organizations.tags.replace', { params: p, body: { tags }, signal });
        }
        case 'default':
          return body.tag === null
            ? upstream.call('organizations.defaultTag.clear', { params: p, signal })
            : upstream.call('organizations.defaultTag.update', { params: p, body: { tag: body.tag }, signal });
      }
    },
  });
}

/** A page of the history; the first page leads with gaps found now in its newest entries' settings. */
async function historyPage(
  deps: SettingsHistoryDeps,
  { query, signal }: ConsoleInput<'console.settings.history.list'>,
) {
  const page = await deps.store.list({
    kinds: query.kind,
    key: query.key,
    key_prefix: query.key_prefix,
    first: query.first,
    after: query.after,
  });
  const live = new Map<string, SettingValue>();
  const gaps = query.after === undefined ? await gapsFoundNow(deps, page.rows, live, signal) : [];
  const items = page.rows.map((r) => revisionOf(r, live.get(`${r.kind}\u0000${r.setting_key}`)));
  const last = page.rows[page.rows.length - 1];
  return {
    items: [...gaps.sort((a, b) => a.label.localeCompare(b.label)), ...items],
    total: page.total + gaps.length,
    has_next_page: page.has_next_page,
    end_cursor: page.has_next_page && last ? String(last.revision_id) : null,
  };
}

/**
 * The newest entries' settings (at most `liveChecks`), compared with the API now: a difference is a gap found
 * on reading. Fills `live` with the values found, by kind and key.
 */
async function gapsFoundNow(
  deps: SettingsHistoryDeps,
  rows: SettingRow[],
  live: Map<string, SettingValue>,
  signal: AbortSignal,
): Promise<SettingRevision[]> {
  const { store } = deps;
  const gaps: SettingRevision[] = [];
  const access = settingsAccess(deps.upstream, signal);
  const seen = new Map<string, SettingRow>();
  for (const r of rows)
    if (!seen.has(`${r.kind}\u0000${r.setting_key}`)) seen.set(`${r.kind}\u0000${r.setting_key}`, r);
  const checks = [...seen.values()].slice(0, deps.liveChecks ?? 10);
  await Promise.all(
    checks.map(async (row) => {
      const id = `${row.kind}\u0000${row.setting_key}`;
      const found = await access.read(row.kind, row.setting_key).catch(() => undefined);
      if (!found) return;
      live.set(id, found.value);
      const last = await store.latest(row.kind, row.setting_key);
      if (!last) return;
      const recorded = parse(last.after_json) ?? null;
      if (sameSetting(recorded, found.value)) return;
      gaps.push({
        ...revisionOf(
          {
            ...last,
            origin: 'outside',
            action: 'outside',
            status: 'applied',
            restored_from: null,
            label: found.label,
            before_json: last.after_json ?? 'null',
            after_json: JSON.stringify(found.value),
            names_json: JSON.stringify({ ...(JSON.parse(last.names_json) as object), ...found.names }),
            error: null,
            made_by: null,
            made_by_kind: null,
          },
          found.value,
        ),
        revision_id: null,
        created_at: Math.floor(Date.now() / 1000),
        // A value found now cannot be "restored" to itself; the entries below it can be.
        restore_before: { allowed: false, reason: 'Found just now: restore an entry below instead.' },
        restore_after: { allowed: false, reason: 'This is the value the setting has now.' },
      });
    }),
  );
  return gaps;
}

/** Applies a value of an entry again (an organization's with its ACU limit), where the API allows it. */
async function restoreEntry(
  deps: SettingsHistoryDeps,
  guarded: Guard,
  { params, body, signal, c }: ConsoleInput<'console.settings.history.restore'>,
) {
  const row = await deps.store.get(params.revision_id);
  if (!row) throw new HttpProblem(404, `Entry ${params.revision_id} was not found in the settings history`);
  const target = body.set === 'after' ? parse(row.after_json) : (parse(row.before_json) ?? null);
  const access = settingsAccess(deps.upstream, signal);
  const ref = { kind: row.kind, key: row.setting_key };
  const refs: Ref[] = row.kind === 'organization' ? [ref, { kind: 'acu-limit', key: row.setting_key }] : [ref];
  return guarded({
    refs,
    action: 'restore',
    by: actorOf(c),
    restoredFrom: row.revision_id,
    access,
    apply: ([current]) => {
      const why = restoreRefusal(row.kind, row.setting_key, target, current!.value);
      if (why) {
        throw new HttpProblem(422, `${why} Nothing was applied.`, {
          reason: 'not_restorable',
          errors: [{ loc: ['body', 'set'], msg: why, type: 'not_restorable' }],
        });
      }
      return access.apply(row.kind, row.setting_key, target!, current!.value);
    },
  });
}

export function settingsHistoryHandlers(deps: SettingsHistoryDeps): ConsoleHandlers {
  const { upstream, store } = deps;
  const guarded = guardedChanges(deps);
  const orgRefs = (orgId: string): Ref[] => [
    { kind: 'organization', key: orgId },
    { kind: 'acu-limit', key: orgId },
  ];

  return {
    'console.settings.organizations.create': (input) => createOrganization(deps, input),
    'console.settings.organizations.update': ({ params, body, signal, c }) => {
      const access = settingsAccess(upstream, signal);
      return guarded({
        refs: orgRefs(params.org_id),
        action: 'update',
        by: actorOf(c),
        access,
        apply: ([org]) => {
          if (org!.value === null) throw new HttpProblem(404, `Organization ${params.org_id} was not found`);
          return nameTaken(body.name, () => upstream.call('organizations.update', { params, body, signal }));
        },
      });
    },
    'console.settings.organizations.delete': ({ params, signal, c }) => {
      const access = settingsAccess(upstream, signal);
      return guarded({
        refs: orgRefs(params.org_id),
        action: 'delete',
        by: actorOf(c),
        access,
        apply: ([org]) => {
          if (org!.value === null) throw new HttpProblem(404, `Organization ${params.org_id} was not found`);
          return upstream.call('organizations.delete', { params, signal });
        },
      });
    },
    'console.settings.acuLimits.set': ({ params, body, signal, c }) => {
      const access = settingsAccess(upstream, signal);
      return guarded({
        refs: [{ kind: 'acu-limit', key: params.level }],
        action: body.cycle_acu_limit === null ? 'remove' : 'set',
        by: actorOf(c),
        access,
        apply: ([before]) => {
          if (before!.value === null) throw new HttpProblem(404, `Organization ${params.level} was not found`);
          return access.apply('acu-limit', params.level, { cycle_acu_limit: body.cycle_acu_limit }, before!.value);
        },
      });
    },
    'console.settings.orgGroupLimits.replace': ({ body, signal, c }) => {
      const access = settingsAccess(upstream, signal);
      return guarded({
        refs: [{ kind: 'org-group-limits', key: 'enterprise' }],
        action: 'replace',
        by: actorOf(c),
        access,
        apply: () => upstream.call('orgGroupLimits.replace', { body, signal }),
      });
    },
    'console.settings.orgTags.change': (input) => changeOrgTags(deps, guarded, input),
    'console.settings.roles.set': ({ body, signal, c }) => {
      const access = settingsAccess(upstream, signal);
      const k = { type: body.principal_type, id: body.principal_id, level: body.level };
      return guarded({
        refs: [roleKey(k)],
        action: body.role_id === null ? 'remove-role' : 'set-role',
        by: actorOf(c),
        access,
        apply: ([before]) => {
          const v = before!.value as { role_id: string | null } | null;
          if (v === null) {
            const what = k.type === 'idp-group' ? 'IdP group' : k.type === 'service-user' ? 'Service user' : 'Member';
            throw new HttpProblem(404, `${what} ${k.id} was not found`);
          }
          return access.setRole(k, body.role_id, v.role_id);
        },
      });
    },
    'console.settings.history.list': (input) => historyPage(deps, input),
    'console.settings.history.get': async ({ params }) => {
      const row = await store.get(params.revision_id);
      if (!row) throw new HttpProblem(404, `Entry ${params.revision_id} was not found in the settings history`);
      return revisionOf(row);
    },
    'console.settings.history.restore': (input) => restoreEntry(deps, guarded, input),
  };
}

export { parseRoleKey };
