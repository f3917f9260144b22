/**
 * Each kept setting as the API holds it now (read), and how a value of it is applied again (write): the one
 * place that knows which operations hold an organization, a limit, the group limits, the tags or a role. A
 * value holds ids only (compared for gaps); the names of those ids travel beside it, so a history names
 * organizations and roles as they were called then.
 */
import type { SettingKind, SettingValue } from '../../../api/console/settings-history';
import type { AcuLimit } from '../../../api/operations/acu-limits';
import type { Organization } from '../../../api/operations/organizations';
import type { OrgGroupsBody } from '../../../api/operations/org-group-limits';
import type { Role, RoleAssignment } from '../../../api/operations/members';
import { HttpProblem } from '../../../node/problem-writer';
import { UpstreamProblem, type UpstreamClient } from '../upstream-client';

export interface Snapshot {
  value: SettingValue;
  label: string;
  names: Record<string, string>;
}

export interface RoleKey {
  type: 'user' | 'service-user' | 'idp-group';
  id: string;
  /** `enterprise` or an org id. */
  level: string;
}

/** `user:<id>@<level>`, `service-user:<id>@<level>`; IdP groups: `<level>@<name>` (a level never holds `@`). */
export function roleKey(k: RoleKey): { kind: SettingKind; key: string } {
  return k.type === 'idp-group'
    ? { kind: 'idp-group-roles', key: `${k.level}@${k.id}` }
    : { kind: 'roles', key: `${k.type}:${k.id}@${k.level}` };
}

export function parseRoleKey(kind: SettingKind, key: string): RoleKey | null {
  if (kind === 'idp-group-roles') {
    const at = key.indexOf('@');
    return at > 0 ? { type: 'idp-group', level: key.slice(0, at), id: key.slice(at + 1) } : null;
  }
  const m = /^(user|service-user):(.+)@([^@]+)$/.exec(key);
  return m ? { type: m[1] as 'user' | 'service-user', id: m[2]!, level: m[3]! } : null;
}

const notFound = (err: unknown) => err instanceof UpstreamProblem && err.status === 404;

async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (notFound(err)) return null;
    throw err;
  }
}

/** Names and organizations for one request, each list read once: what reading a setting names it with. */
function lookups(upstream: UpstreamClient, signal?: AbortSignal) {
  let orgs: Promise<Map<string, string>> | undefined;
  let roles: Promise<Map<string, Role>> | undefined;
  const orgNames = () =>
    (orgs ??= upstream
      .all('organizations.list', { signal, maxItems: 5_000 })
      .then((items) => new Map((items as Organization[]).map((o) => [o.org_id, o.name]))));
  const roleMap = () =>
    (roles ??= upstream
      .all('roles.list', { signal, maxItems: 2_000 })
      .then((items) => new Map((items as Role[]).map((r) => [r.role_id, r]))));
  return {
    upstream,
    signal,
    orgNames,
    getOrg: (orgId: string) => orNull(upstream.call('organizations.get', { params: { org_id: orgId }, signal })),
    /** The name of a level: "enterprise-wide" or "in Platform team". */
    async levelNames(level: string, names: Record<string, string>, fallback?: string) {
      if (level === 'enterprise') return 'enterprise-wide';
      const name = (await orgNames().catch(() => new Map<string, string>())).get(level) ?? fallback;
      if (name) names[level] = name;
      return `in ${name ?? `organization ${level}`}`;
    },
    async roleName(roleId: string | null, names: Record<string, string>) {
      if (roleId === null) return;
      const r = (await roleMap().catch(() => new Map<string, Role>())).get(roleId);
      if (r) names[roleId] = r.role_name;
    },
  };
}
type Lookups = ReturnType<typeof lookups>;

/** Reads and writes of the settings for one request: organization and role names are read once. */
export function settingsAccess(upstream: UpstreamClient, signal?: AbortSignal) {
  const l = lookups(upstream, signal);
  return {
    read: (kind: SettingKind, key: string) => readSetting(l, kind, key),
    setRole: (k: RoleKey, roleId: string | null, before: string | null) => setRole(l, k, roleId, before),
    apply: (kind: SettingKind, key: string, target: SettingValue, current: SettingValue) =>
      applySetting(l, kind, key, target, current),
    orgNames: l.orgNames,
    getOrg: l.getOrg,
  };
}

const roleAt = (assignments: readonly RoleAssignment[] | undefined, level: string) =>
  (assignments ?? []).find((a) => (a.org_id ?? 'enterprise') === level)?.role.role_id ?? null;

async function readRole(l: Lookups, k: RoleKey): Promise<Snapshot> {
  const { upstream, signal } = l;
  const names: Record<string, string> = {};
  let who: string;
  let value: SettingValue;
  if (k.type === 'user') {
    const u = await orNull(upstream.call('members.users.get', { params: { user_id: k.id }, signal }));
    who = u ? (u.email ?? u.name ?? `user ${k.id}`) : `user ${k.id}`;
    value = u ? { role_id: roleAt(u.role_assignments, k.level) } : null;
  } else if (k.type === 'service-user') {
    const s = await orNull(upstream.call('serviceUsers.get', { params: { service_user_id: k.id }, signal }));
    who = s ? `service user ${s.name}` : `service user ${k.id}`;
    value = s && !s.deleted_at ? { role_id: roleAt(s.role_assignments, k.level) } : null;
  } else {
    who = `IdP group ${k.id}`;
    if (k.level === 'enterprise') {
      const g = await orNull(upstream.call('idpGroups.roles.get', { params: { idp_group_name: k.id }, signal }));
      value = g ? { role_id: roleAt(g.role_assignments, 'enterprise') } : null;
    } else {
      const params = { org_id: k.level, idp_group_name: k.id };
      const g = await orNull(upstream.call('idpGroups.organization.roles.get', { params, signal }));
      // 404: no role there.
      value = {
        role_id: g ? (roleAt(g.role_assignments, k.level) ?? g.role_assignments?.[0]?.role.role_id ?? null) : null,
      };
    }
  }
  await l.roleName(value ? ((value as { role_id: string | null }).role_id ?? null) : null, names);
  return { value, label: `${who} ${await l.levelNames(k.level, names)}`, names };
}

async function readSetting(l: Lookups, kind: SettingKind, key: string): Promise<Snapshot> {
  const { upstream, signal, getOrg } = l;
  switch (kind) {
    case 'organization': {
      const org = await getOrg(key);
      return {
        value: org ? { name: org.name, max_session_acu_limit: org.max_session_acu_limit ?? null } : null,
        label: org?.name ?? `organization ${key}`,
        names: org ? { [key]: org.name } : {},
      };
    }
    case 'acu-limit': {
      if (key === 'enterprise') {
        const all = (await upstream.all('acuLimits.list', { signal, maxItems: 20_000 })) as AcuLimit[];
        const mine = all.find((l) => l.scope === 'enterprise');
        return { value: { cycle_acu_limit: mine?.cycle_acu_limit ?? null }, label: 'Enterprise', names: {} };
      }
      const org = await getOrg(key);
      return {
        value: org ? { cycle_acu_limit: org.max_cycle_acu_limit ?? null } : null,
        label: org?.name ?? `organization ${key}`,
        names: org ? { [key]: org.name } : {},
      };
    }
    case 'org-group-limits': {
      const config = await upstream.call('orgGroupLimits.get', { signal });
      const names: Record<string, string> = {};
      const all = await l.orgNames().catch(() => new Map<string, string>());
      const groups: Record<string, SettingValue> = {};
      for (const [name, g] of Object.entries(config.groups).sort(([a], [b]) => a.localeCompare(b))) {
        const ids = [...g.org_ids].sort();
        for (const id of ids) {
          const n = all.get(id);
          if (n) names[id] = n;
        }
        groups[name] = { org_ids: ids, max_cycle_acus: g.max_cycle_acus ?? null };
      }
      return { value: { groups }, label: 'Org group limits', names };
    }
    case 'org-tags': {
      const org = await getOrg(key);
      if (!org) return { value: null, label: `organization ${key}`, names: {} };
      const params = { org_id: key };
      const [allowed, def] = await Promise.all([
        upstream.call('organizations.tags.get', { params, signal }),
        upstream.call('organizations.defaultTag.get', { params, signal }),
      ]);
      return {
        value: { tags: [...allowed.tags].sort(), default_tag: def.default_tag ?? null },
        label: org.name,
        names: { [key]: org.name },
      };
    }
    case 'roles':
    case 'idp-group-roles': {
      const k = parseRoleKey(kind, key);
      if (!k) throw new HttpProblem(404, `No setting ${kind} ${key.slice(0, 100)}`);
      return readRole(l, k);
    }
  }
}

/**
 * Gives `k` the role `roleId` at its level (null: none there), from `before` (the role it holds now):
 * assign, change or remove, as the API offers for that kind of principal.
 */
async function setRole(l: Lookups, k: RoleKey, roleId: string | null, before: string | null): Promise<unknown> {
  const { upstream, signal } = l;
  if (roleId === before) return undefined;
  const body = { role_id: roleId ?? '' };
  const org = k.level === 'enterprise' ? null : k.level;
  if (k.type === 'user') {
    if (org === null) {
      if (roleId === null)
        throw cannotRemove('A member always holds an enterprise role; choose another role, or remove the member.');
      return upstream.call('members.users.update', { params: { user_id: k.id }, body, signal });
    }
    const params = { org_id: org, user_id: k.id };
    if (roleId === null) return upstream.call('members.organization.users.remove', { params, signal });
    return before === null
      ? upstream.call('members.organization.users.create', { params, body, signal })
      : upstream.call('members.organization.users.update', { params, body, signal });
  }
  if (k.type === 'service-user') {
    if (roleId === null) {
      throw cannotRemove(
        'The API cannot take a role away from a service user and keep it; remove the service user instead.',
      );
    }
    if (org === null) {
      const params = { service_user_id: k.id };
      return before === null
        ? upstream.call('serviceUsers.roles.assign', { params, body, signal })
        : upstream.call('serviceUsers.roles.update', { params, body, signal });
    }
    const params = { org_id: org, service_user_id: k.id };
    return before === null
      ? upstream.call('serviceUsers.organization.roles.assign', { params, body, signal })
      : upstream.call('serviceUsers.organization.roles.update', { params, body, signal });
  }
  if (org === null) {
    const params = { idp_group_name: k.id };
    if (roleId === null) return upstream.call('idpGroups.roles.remove', { params, signal });
    return before === null
      ? upstream.call('idpGroups.roles.assign', { params, body, signal })
      : upstream.call('idpGroups.roles.update', { params, body, signal });
  }
  const params = { org_id: org, idp_group_name: k.id };
  if (roleId === null) return upstream.call('idpGroups.organization.roles.remove', { params, signal });
  return before === null
    ? upstream.call('idpGroups.organization.roles.assign', { params, body, signal })
    : upstream.call('idpGroups.organization.roles.update', { params, body, signal });
}

/** Applies `target` (a value of this setting kept in its history) over `current`. */
async function applySetting(
  l: Lookups,
  kind: SettingKind,
  key: string,
  target: SettingValue,
  current: SettingValue,
): Promise<unknown> {
  const { upstream, signal } = l;
  const why = restoreRefusal(kind, key, target, current);
  if (why) throw new HttpProblem(422, why, { reason: 'not_restorable' });
  const t = target as Record<string, SettingValue>;
  switch (kind) {
    case 'organization':
      return upstream.call('organizations.update', {
        params: { org_id: key },
        body: { name: t.name as string, max_session_acu_limit: (t.max_session_acu_limit as number | null) ?? null },
        signal,
      });
    case 'acu-limit': {
      const v = t.cycle_acu_limit as number | null;
      if (key === 'enterprise') {
        return v === null
          ? upstream.call('acuLimits.enterprise.delete', { signal })
          : upstream.call('acuLimits.enterprise.update', { body: { cycle_acu_limit: v }, signal });
      }
      const params = { org_id: key };
      return v === null
        ? upstream.call('acuLimits.organization.delete', { params, signal })
        : upstream.call('acuLimits.organization.update', { params, body: { cycle_acu_limit: v }, signal });
    }
    case 'org-group-limits':
      return upstream.call('orgGroupLimits.replace', { body: t as unknown as OrgGroupsBody, signal });
    case 'org-tags': {
      const params = { org_id: key };
      const tags = t.tags as string[];
      const def = t.default_tag as string | null;
      const result =
        tags.length === 0
          ? await upstream.call('organizations.tags.clear', { params, signal })
          : await upstream.call('organizations.tags.replace', { params, body: { tags }, signal });
      const now = await upstream.call('organizations.defaultTag.get', { params, signal });
      if ((now.default_tag ?? null) !== def) {
        await (def === null
          ? upstream.call('organizations.defaultTag.clear', { params, signal })
          : upstream.call('organizations.defaultTag.update', { params, body: { tag: def }, signal }));
      }
      return result;
    }
    case 'roles':
    case 'idp-group-roles': {
      const k = parseRoleKey(kind, key)!;
      const cur = current as { role_id: string | null };
      return setRole(l, k, (t.role_id as string | null) ?? null, cur.role_id ?? null);
    }
  }
}

export type SettingsAccess = ReturnType<typeof settingsAccess>;

const cannotRemove = (detail: string) =>
  new HttpProblem(422, detail, {
    errors: [{ loc: ['body', 'role_id'], msg: detail, type: 'not_removable' }],
  });

/**
 * Why `target` cannot be applied over `current` (null: it can). `current` undefined: not known (a restore
 * then finds out from the API).
 */
export function restoreRefusal(
  kind: SettingKind,
  key: string,
  target: SettingValue | undefined,
  current: SettingValue | undefined,
): string | null {
  if (target === undefined) return 'The value after this change could not be read, so there is nothing to restore.';
  switch (kind) {
    case 'organization':
      if (current === null) return 'A deleted organization cannot be restored: the API cannot bring it back.';
      if (target === null)
        return 'The organization did not exist then; restoring would delete it. Delete it from the organizations list instead.';
      return null;
    case 'acu-limit':
    case 'org-tags':
      if (key !== 'enterprise' && current === null)
        return 'The organization was deleted: its settings cannot be restored (the API cannot bring it back).';
      if (target === null) return 'The organization did not exist then: there is no value to restore.';
      return null;
    case 'org-group-limits':
      return null;
    case 'roles':
    case 'idp-group-roles': {
      const k = parseRoleKey(kind, key);
      const who = k?.type === 'idp-group' ? 'IdP group' : k?.type === 'service-user' ? 'service user' : 'member';
      if (current === null) return `The ${who} no longer exists: the API cannot bring it back with its roles.`;
      if (target === null) return `The ${who} did not exist then: there is no role to restore.`;
      const role = (target as { role_id?: SettingValue }).role_id ?? null;
      if (role === null && k?.type === 'user' && k.level === 'enterprise')
        return 'A member always holds an enterprise role: the API cannot take it away.';
      if (role === null && k?.type === 'service-user')
        return 'The API cannot take a role away from a service user and keep it.';
      return null;
    }
  }
}
