/**
 * The planner: what turns live state into the document's configuration, as a list of changes per
 * organization and resource (create, update, delete; destructive ones marked) and, beside each, the step that
 * carries it out. Steps run in dependency order (`phase`): organizations first, then enterprise settings that
 * name them, then each organization's settings and contents, schedules after the playbooks they use, deletes
 * last and organizations' deletes after their contents'.
 *
 * Nothing is deleted that the document does not manage: a live item missing from a set is deleted only when
 * the set says `manage: all` or the plan is made with `prune` (and only in sets the document writes).
 */
import { createHash } from 'node:crypto';
import { gitPermissionSetVersion } from '../../../api/git-permissions/set-diff';
import {
  gitItemKey,
  noteKey,
  noteLabel,
  normalizeFolder,
  type DocumentError,
  type ExpandedConfig,
  type ExpandedOrganization,
  type ManagedSet,
} from '../../../api/config-document/parse';
import type { PlaybookItem, SecretItem, ServiceUserItem } from '../../../api/config-document/schema';
import type { ConfigAction, ConfigChange, ConfigCounts, ConfigResourceKind } from '../../../api/console/configuration';
import type { CreateScheduleBody, UpdateScheduleBody } from '../../../api/operations/schedules';
import type { UpstreamClient } from '../upstream-client';
import { stableJson, type LiveIds, type LiveOrg, type LiveSecret, type LiveView } from './live';

/** What a step may use while it runs. */
export interface StepContext {
  upstream: UpstreamClient;
  /** The id of an organization by name, including those created earlier in this apply. */
  orgId(name: string): string;
  /** The value of an environment variable the apply request carried. */
  secretValue(env: string): string;
  /** The guarded paths of the git permissions and IP access list screens (version check, lock, history). */
  replaceGitPermissions(
    orgId: string,
    baseVersion: string,
    items: {
      git_connection_id: string;
      repo_path?: string;
      prefix_path?: string;
      group_prefix?: string;
      read_only: boolean;
    }[],
  ): Promise<void>;
  applyIpAccessList(baseVersion: string, list: string[]): Promise<void>;
}

export interface PlannedStep {
  change: ConfigChange;
  phase: number;
  run(ctx: StepContext): Promise<void>;
}

export interface Plan {
  steps: PlannedStep[];
  changes: ConfigChange[];
  counts: ConfigCounts;
  errors: Omit<DocumentError, 'file'>[];
  secretEnv: string[];
  planId: string;
}

const MAX_TEXT = 160;
const show = (v: unknown): string | null => {
  if (v === undefined || v === null) return null;
  const s =
    typeof v === 'string'
      ? v
      : Array.isArray(v)
        ? v.map((x) => (typeof x === 'string' ? x : stableJson(x))).join(', ')
        : stableJson(v);
  return s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s;
};

const same = (a: unknown, b: unknown) => stableJson(a ?? null) === stableJson(b ?? null);

/** Fields `want` sets that differ from `have` (fields `want` leaves out are not managed). */
function fieldDiff(want: object, have: object | undefined, norm: Record<string, (v: unknown) => unknown> = {}) {
  const out: { field: string; before: string | null; after: string | null }[] = [];
  for (const [field, value] of Object.entries(want)) {
    if (value === undefined) continue;
    const n = norm[field] ?? ((v: unknown) => v);
    const before = have ? (have as Record<string, unknown>)[field] : undefined;
    if (!have || !same(n(value), n(before)))
      out.push({ field, before: have ? show(before) : null, after: show(value) });
  }
  return out;
}

const sortedSet = (v: unknown) => (Array.isArray(v) ? [...(v as string[])].sort() : v);

/** Adds one step to the plan: the change it shows and how it is carried out. */
type Add = (
  organization: string | null,
  kind: ConfigResourceKind,
  key: string,
  action: ConfigAction,
  phase: number,
  summary: string,
  fields: ConfigChange['fields'],
  run: PlannedStep['run'],
  destructive?: boolean,
) => void;

/** What every planning step shares: the document, the ids read live, and what the plan collects. */
interface Planner {
  config: ExpandedConfig;
  ids: LiveIds;
  add: Add;
  errors: Plan['errors'];
  secretEnv: Set<string>;
  /** Whether live items a set leaves out are deleted (`manage: all`, or `prune` for sets the document writes). */
  deletes(set: ManagedSet<unknown> | undefined): boolean;
}

export function buildPlan(
  config: ExpandedConfig,
  live: LiveView,
  ids: LiveIds,
  prune: boolean,
  fingerprint: string,
): Plan {
  const steps: PlannedStep[] = [];
  const p: Planner = {
    config,
    ids,
    add: stepAdder(steps),
    errors: [],
    secretEnv: new Set<string>(),
    deletes: (set) => set !== undefined && (prune || set.manage === 'all'),
  };
  const liveOrgs = new Map(live.organizations.map((o) => [o.name, o] as const));
  const wanted = new Set(config.organizations.items.map((o) => o.name));
  planOrganizations(p, live, liveOrgs, prune);
  planEnterpriseAcuLimit(p, live);
  planIpAccessList(p, live);
  planOrgGroupLimits(p, live, (name) => wanted.has(name) || liveOrgs.has(name));
  planEnterpriseIdpGroups(p, live);
  const ent = config.enterprise;
  if (ent.service_users) {
    const roleOf = (name: string, type: 'enterprise' | 'org', path: string) => roleId(p, name, type, path);
    planServiceUsers(
      ent.service_users,
      live.enterprise.service_users ?? [],
      ids,
      p.deletes(ent.service_users),
      p.add,
      roleOf,
    );
  }
  if (ent.playbooks)
    planPlaybooks(null, ent.playbooks, live.enterprise.playbooks ?? [], ids, p.deletes(ent.playbooks), p.add);
  return summarize(steps, p, fingerprint, prune);
}

function stepAdder(steps: PlannedStep[]): Add {
  return (organization, kind, key, action, phase, summary, fields, run, destructive = action === 'delete') => {
    steps.push({
      change: {
        id: `${organization ?? '(enterprise)'}/${kind}/${key}`,
        organization,
        kind,
        key,
        action,
        destructive,
        summary,
        fields,
      },
      phase,
      run,
    });
  };
}

/** Steps in dependency order, the counts, and an id over exactly what was planned from what. */
function summarize(steps: PlannedStep[], p: Planner, fingerprint: string, prune: boolean): Plan {
  steps.sort((a, b) => a.phase - b.phase);
  const changes = steps.map((s) => s.change);
  const counts: ConfigCounts = { create: 0, update: 0, delete: 0, destructive: 0 };
  for (const c of changes) {
    counts[c.action]++;
    if (c.destructive) counts.destructive++;
  }
  const planId = `pl1-${createHash('sha256').update(stableJson({ fingerprint, prune, changes })).digest('hex').slice(0, 32)}`;
  return { steps, changes, counts, errors: p.errors, secretEnv: [...p.secretEnv].sort(), planId };
}

/** Each organization of the document (created or changed, then its contents), then those it no longer has. */
function planOrganizations(p: Planner, live: LiveView, liveOrgs: Map<string, LiveOrg>, prune: boolean) {
  const { config, ids, add } = p;
  for (const org of config.organizations.items) {
    const have = liveOrgs.get(org.name);
    const want = { acu_limit: org.acu_limit, session_acu_limit: org.session_acu_limit };
    const fields = fieldDiff(want, have);
    const body = {
      ...(org.acu_limit !== undefined ? { max_cycle_acu_limit: org.acu_limit } : {}),
      ...(org.session_acu_limit !== undefined ? { max_session_acu_limit: org.session_acu_limit } : {}),
    };
    if (!have) {
      add(
        null,
        'organization',
        org.name,
        'create',
        0,
        `Create the organization ${org.name}${org.include.length ? ` (from ${org.include.join(', ')})` : ''}`,
        [{ field: 'name', before: null, after: org.name }, ...fields],
        async (ctx) => {
          const created = await ctx.upstream.call('organizations.create', { body: { name: org.name, ...body } });
          ids.orgs.set(org.name, created.org_id);
        },
      );
    } else if (fields.length > 0) {
      add(
        null,
        'organization',
        org.name,
        'update',
        0,
        `Change ${fields.map((f) => f.field.replace(/_/g, ' ')).join(', ')} of ${org.name}`,
        fields,
        async (ctx) => {
          await ctx.upstream.call('organizations.update', { params: { org_id: ctx.orgId(org.name) }, body });
        },
      );
    }
    planOrganization(orgPlanner(p, org, have));
  }
  if (!prune && config.organizations.manage !== 'all') return;
  // --prune with no organizations written is not "delete every organization": sets the document writes only.
  if (prune && config.organizations.items.length === 0 && config.organizations.manage !== 'all') return;
  const wanted = new Set(config.organizations.items.map((o) => o.name));
  for (const o of live.organizations) {
    if (wanted.has(o.name)) continue;
    add(
      null,
      'organization',
      o.name,
      'delete',
      9,
      `Delete the organization ${o.name} and everything in it`,
      [],
      async (ctx) => {
        await ctx.upstream.call('organizations.delete', { params: { org_id: ctx.orgId(o.name) } });
      },
    );
  }
}

function planEnterpriseAcuLimit(p: Planner, live: LiveView) {
  const value = p.config.enterprise.acu_limit;
  const before = live.enterprise.acu_limit;
  if (value === undefined || same(value, before)) return;
  p.add(
    null,
    'enterprise_acu_limit',
    'enterprise',
    value === null ? 'delete' : before == null ? 'create' : 'update',
    1,
    value === null ? 'Remove the enterprise’s ACU limit' : `Set the enterprise’s ACU limit to ${value}`,
    [{ field: 'acu_limit', before: show(before), after: show(value) }],
    async (ctx) => {
      if (value === null) await ctx.upstream.call('acuLimits.enterprise.delete', {});
      else await ctx.upstream.call('acuLimits.enterprise.update', { body: { cycle_acu_limit: value } });
    },
  );
}

function planIpAccessList(p: Planner, live: LiveView) {
  const want = p.config.enterprise.ip_access_list;
  if (want === undefined) return;
  const have = live.enterprise.ip_access_list ?? [];
  if (same(want, have)) return;
  const added = want.filter((r) => !have.includes(r));
  const removed = have.filter((r) => !want.includes(r));
  p.add(
    null,
    'ip_access_list',
    'enterprise',
    'update',
    1,
    `Replace the IP access list: ${added.length} added, ${removed.length} removed`,
    [
      ...(added.length ? [{ field: 'added', before: null, after: show(added) }] : []),
      ...(removed.length ? [{ field: 'removed', before: show(removed), after: null }] : []),
    ],
    async (ctx) => {
      const { ipAccessListVersion } = await import('../ip-access-list');
      await ctx.applyIpAccessList(ipAccessListVersion(p.ids.ipList ?? []), want);
    },
    removed.length > 0,
  );
}

/** The org group limits as one set; each organization a group names must exist live or in the document. */
function planOrgGroupLimits(p: Planner, live: LiveView, known: (orgName: string) => boolean) {
  const want = p.config.enterprise.org_group_limits;
  if (want === undefined) return;
  const have = live.enterprise.org_group_limits ?? {};
  const norm = (g: Record<string, { organizations: string[]; max_cycle_acus?: number | null }>) =>
    Object.fromEntries(
      Object.entries(g).map(([k, v]) => [
        k,
        { organizations: [...v.organizations].sort(), max_cycle_acus: v.max_cycle_acus ?? null },
      ]),
    );
  for (const [name, g] of Object.entries(want)) {
    for (const [j, orgName] of g.organizations.entries()) {
      if (known(orgName)) continue;
      p.errors.push({
        path: `enterprise.org_group_limits.${name}.organizations[${j}]`,
        line: null,
        column: null,
        message: `No organization is named “${orgName}” (neither live nor in the document)`,
      });
    }
  }
  if (same(norm(want), norm(have))) return;
  const removed = Object.keys(have).filter((k) => !(k in want));
  p.add(
    null,
    'org_group_limits',
    'enterprise',
    'update',
    1,
    `Replace the org group limits (${Object.keys(want).length} groups${removed.length ? `; removes ${removed.join(', ')}` : ''})`,
    [{ field: 'groups', before: show(Object.keys(have)), after: show(Object.keys(want)) }],
    async (ctx) => {
      const groups = Object.fromEntries(
        Object.entries(want).map(([n, g]) => [
          n,
          { org_ids: g.organizations.map((o) => ctx.orgId(o)), max_cycle_acus: g.max_cycle_acus ?? null },
        ]),
      );
      await ctx.upstream.call('orgGroupLimits.replace', { body: { groups } });
    },
    removed.length > 0,
  );
}

/** The id of a role by name; an unknown name is a document error at `path` (and the id is empty). */
function roleId(p: Planner, name: string, type: 'enterprise' | 'org', path: string): string {
  const role = p.ids.roles.find((r) => r.role_name === name && r.role_type === type);
  if (!role) {
    const known = p.ids.roles.filter((r) => r.role_type === type).map((r) => r.role_name);
    p.errors.push({
      path,
      line: null,
      column: null,
      message: `No ${type === 'org' ? 'organization' : 'enterprise'} role is named “${name}” (roles: ${known.join(', ')})`,
    });
  }
  return role?.role_id ?? '';
}

function planEnterpriseIdpGroups(p: Planner, live: LiveView) {
  const set = p.config.enterprise.idp_groups;
  if (!set) return;
  const { add } = p;
  const have = new Map((live.enterprise.idp_groups ?? []).map((g) => [g.name, g] as const));
  for (const g of set.items) {
    const h = have.get(g.name);
    const rid = g.role ? roleId(p, g.role, 'enterprise', `enterprise.idp_groups (${g.name})`) : null;
    if (!h) {
      add(
        null,
        'idp_group',
        g.name,
        'create',
        1,
        `Register the IdP group ${g.name}${g.role ? ` with the role ${g.role}` : ''}`,
        [{ field: 'role', before: null, after: show(g.role) }],
        async (ctx) => {
          await ctx.upstream.call('idpGroups.create', { body: { idp_group_names: [g.name] } });
          if (rid)
            await ctx.upstream.call('idpGroups.roles.assign', {
              params: { idp_group_name: g.name },
              body: { role_id: rid },
            });
        },
      );
    } else if (g.role !== undefined && !same(g.role, h.role)) {
      add(
        null,
        'idp_group',
        g.name,
        'update',
        1,
        `Change the enterprise role of the IdP group ${g.name}`,
        [{ field: 'role', before: show(h.role), after: show(g.role) }],
        async (ctx) => {
          const params = { idp_group_name: g.name };
          if (!rid) await ctx.upstream.call('idpGroups.roles.remove', { params });
          else if (h.role) await ctx.upstream.call('idpGroups.roles.update', { params, body: { role_id: rid } });
          else await ctx.upstream.call('idpGroups.roles.assign', { params, body: { role_id: rid } });
        },
        !rid,
      );
    }
  }
  if (!p.deletes(set)) return;
  const names = new Set(set.items.map((g) => g.name));
  for (const h of live.enterprise.idp_groups ?? []) {
    if (names.has(h.name)) continue;
    add(null, 'idp_group', h.name, 'delete', 8, `Unregister the IdP group ${h.name}`, [], async (ctx) => {
      await ctx.upstream.call('idpGroups.delete', { params: { idp_group_name: h.name } });
    });
  }
}

function planServiceUsers(
  set: ManagedSet<ServiceUserItem>,
  live: ServiceUserItem[],
  ids: LiveIds,
  deletes: boolean,
  add: Add,
  roleId: (name: string, type: 'enterprise' | 'org', path: string) => string,
) {
  const have = new Map(live.map((u) => [u.name, u] as const));
  for (const u of set.items) {
    const h = have.get(u.name);
    const rid = u.role ? roleId(u.role, 'enterprise', `enterprise.service_users (${u.name})`) : null;
    if (!h) {
      add(
        null,
        'service_user',
        u.name,
        'create',
        1,
        `Create the service user ${u.name}${u.role ? ` with the role ${u.role}` : ''} (its credential is not shown: create one on the Service users screen)`,
        [
          { field: 'role', before: null, after: show(u.role) },
          ...(u.lifetime_days ? [{ field: 'lifetime_days', before: null, after: String(u.lifetime_days) }] : []),
        ],
        async (ctx) => {
          if (!rid) throw new Error(`A new service user needs a role: give ${u.name} one`);
          // The answer holds the new credential: it is dropped here, never reported, logged or stored.
          const created = await ctx.upstream.call('serviceUsers.create', {
            body: { name: u.name, role_id: rid, lifetime_days: u.lifetime_days ?? null },
          });
          ids.serviceUsers.set(u.name, created.service_user_id);
        },
      );
    } else if (u.role !== undefined && u.role !== null && !same(u.role, h.role)) {
      add(
        null,
        'service_user',
        u.name,
        'update',
        1,
        `Change the role of the service user ${u.name}`,
        [{ field: 'role', before: show(h.role), after: show(u.role) }],
        async (ctx) => {
          const params = { service_user_id: ids.serviceUsers.get(u.name)! };
          if (h.role) await ctx.upstream.call('serviceUsers.roles.update', { params, body: { role_id: rid! } });
          else await ctx.upstream.call('serviceUsers.roles.assign', { params, body: { role_id: rid! } });
        },
      );
    }
  }
  if (deletes) {
    const names = new Set(set.items.map((u) => u.name));
    for (const h of live) {
      const id = ids.serviceUsers.get(h.name);
      // The console's own credential is never deleted by a document: that would lock the console out.
      if (names.has(h.name) || (id && id === ids.self)) continue;
      add(
        null,
        'service_user',
        h.name,
        'delete',
        8,
        `Delete the service user ${h.name} (its credential stops working)`,
        [],
        async (ctx) => {
          await ctx.upstream.call('serviceUsers.delete', { params: { service_user_id: id! } });
        },
      );
    }
  }
}

function planPlaybooks(
  org: string | null,
  set: ManagedSet<PlaybookItem>,
  live: PlaybookItem[],
  ids: LiveIds,
  deletes: boolean,
  add: Add,
) {
  const have = new Map(live.map((p) => [p.title, p] as const));
  const idOf = (_ctx: StepContext, title: string) =>
    org === null ? ids.entPlaybooks.get(title)! : ids.perOrg.get(org)!.playbooks.get(title)!;
  for (const p of set.items) {
    const h = have.get(p.title);
    const fields = fieldDiff(p, h);
    const body = (base?: PlaybookItem) => ({
      title: p.title,
      body: p.body,
      macro: p.macro !== undefined ? p.macro : (base?.macro ?? null),
    });
    if (!h) {
      add(org, 'playbook', p.title, 'create', 3, `Create the playbook ${p.title}`, fields, async (ctx) => {
        const created =
          org === null
            ? await ctx.upstream.call('playbooks.enterprise.create', { body: body() })
            : await ctx.upstream.call('playbooks.create', { params: { org_id: ctx.orgId(org) }, body: body() });
        if (org === null) ids.entPlaybooks.set(p.title, created.playbook_id);
        else ids.perOrg.get(org)!.playbooks.set(p.title, created.playbook_id);
      });
    } else if (fields.length > 0) {
      add(
        org,
        'playbook',
        p.title,
        'update',
        3,
        `Change ${fields.map((f) => f.field).join(', ')} of the playbook ${p.title}`,
        fields,
        async (ctx) => {
          if (org === null)
            await ctx.upstream.call('playbooks.enterprise.update', {
              params: { playbook_id: idOf(ctx, p.title) },
              body: body(h),
            });
          else
            await ctx.upstream.call('playbooks.update', {
              params: { org_id: ctx.orgId(org), playbook_id: idOf(ctx, p.title) },
              body: body(h),
            });
        },
      );
    }
  }
  if (deletes) {
    const titles = new Set(set.items.map((p) => p.title));
    for (const h of live) {
      if (titles.has(h.title)) continue;
      add(org, 'playbook', h.title, 'delete', 7, `Delete the playbook ${h.title}`, [], async (ctx) => {
        if (org === null)
          await ctx.upstream.call('playbooks.enterprise.delete', { params: { playbook_id: idOf(ctx, h.title) } });
        else
          await ctx.upstream.call('playbooks.delete', {
            params: { org_id: ctx.orgId(org), playbook_id: idOf(ctx, h.title) },
          });
      });
    }
  }
}

type LiveOrgIds = NonNullable<ReturnType<LiveIds['perOrg']['get']>>;

/** Planning one organization of the document: the planner, the organization, and what it has live. */
interface OrgPlanner extends Planner {
  org: ExpandedOrganization;
  name: string;
  have: LiveOrg | undefined;
  /** The ids read live in the organization (set up empty for an organization the apply creates). */
  orgIds(): LiveOrgIds | undefined;
  /** Where in the document a field (and an item of it) is, for errors. */
  at(field: string, key?: string): string;
}

function orgPlanner(p: Planner, org: ExpandedOrganization, have: LiveOrg | undefined): OrgPlanner {
  const name = org.name;
  if (!p.ids.perOrg.has(name)) {
    p.ids.perOrg.set(name, {
      folders: new Map([['/', '']]),
      notes: new Map(),
      playbooks: new Map(),
      schedules: new Map(),
      secrets: new Map(),
      git: [],
    });
  }
  return {
    ...p,
    org,
    name,
    have,
    orgIds: () => p.ids.perOrg.get(name),
    at: (field, key) => `${org.path}.${field}${key ? ` (${key})` : ''}`,
  };
}

/** An organization's settings and contents, in the order their steps are shown. */
function planOrganization(o: OrgPlanner) {
  planAllowedTags(o);
  planDefaultTag(o);
  planGitPermissions(o);
  planOrgIdpGroups(o);
  if (o.org.playbooks)
    planPlaybooks(o.name, o.org.playbooks, o.have?.playbooks ?? [], o.ids, o.deletes(o.org.playbooks), o.add);
  planNotes(o);
  planSecrets(o);
  planSchedules(o);
}

/** Allowed tags, then the default tag (which must be one of them). */
function planAllowedTags({ org, name, have, add }: OrgPlanner) {
  if (org.allowed_tags === undefined) return;
  const want = org.allowed_tags;
  const before = have?.allowed_tags ?? [];
  if (same(sortedSet(want), sortedSet(before))) return;
  const removed = before.filter((t) => !want.includes(t));
  add(
    name,
    'allowed_tags',
    'tags',
    have ? 'update' : 'create',
    2,
    `Allow ${want.length ? want.length + ' session tags' : 'any session tag'} in ${name}`,
    [{ field: 'allowed_tags', before: show(before), after: show(want) }],
    async (ctx) => {
      const params = { org_id: ctx.orgId(name) };
      if (want.length === 0) await ctx.upstream.call('organizations.tags.clear', { params });
      else await ctx.upstream.call('organizations.tags.replace', { params, body: { tags: want } });
    },
    removed.length > 0,
  );
}

function planDefaultTag({ org, name, have, add }: OrgPlanner) {
  if (org.default_tag === undefined || same(org.default_tag, have?.default_tag ?? null)) return;
  const tag = org.default_tag;
  add(
    name,
    'default_tag',
    'default tag',
    tag === null ? 'delete' : have?.default_tag ? 'update' : 'create',
    2.5,
    tag === null ? `Clear the default tag of ${name}` : `Set the default tag of ${name} to ${tag}`,
    [{ field: 'default_tag', before: show(have?.default_tag), after: show(tag) }],
    async (ctx) => {
      const params = { org_id: ctx.orgId(name) };
      if (tag === null) await ctx.upstream.call('organizations.defaultTag.clear', { params });
      else await ctx.upstream.call('organizations.defaultTag.update', { params, body: { tag } });
    },
  );
}

/** The git permissions as one set, through the git permissions screen's guarded replace. */
function planGitPermissions({ org, name, have, add, ids, errors, orgIds }: OrgPlanner) {
  if (org.git_permissions === undefined) return;
  const want = org.git_permissions;
  const before = have?.git_permissions ?? [];
  want.forEach((p, j) => {
    if (!ids.connections.has(p.connection)) {
      errors.push({
        path: `${org.path}.git_permissions[${j}]`,
        line: null,
        column: null,
        message: `No git connection is named “${p.connection}” (connections: ${[...ids.connections.keys()].join(', ') || 'none'})`,
      });
    }
  });
  const key = (p: { read_only?: boolean } & Parameters<typeof gitItemKey>[0]) =>
    `${gitItemKey(p)}\u0000${p.read_only ? 1 : 0}`;
  const wantKeys = new Set(want.map(key));
  const haveKeys = new Set(before.map(key));
  const added = want.filter((p) => !haveKeys.has(key(p)));
  const removed = before.filter((p) => !wantKeys.has(key(p)));
  if (added.length === 0 && removed.length === 0) return;
  const label = (p: (typeof want)[number]) =>
    `${p.connection}: ${p.repo_path ?? p.prefix_path ?? p.group_prefix}${p.read_only ? ' (read-only)' : ''}`;
  add(
    name,
    'git_permissions',
    'git permissions',
    have ? 'update' : 'create',
    2,
    `Replace the git permissions of ${name}: ${added.length} added, ${removed.length} removed (${want.length} in the set)`,
    [
      ...(added.length ? [{ field: 'added', before: null, after: show(added.map(label)) }] : []),
      ...(removed.length ? [{ field: 'removed', before: show(removed.map(label)), after: null }] : []),
    ],
    async (ctx) => {
      const current = orgIds()?.git ?? [];
      await ctx.replaceGitPermissions(
        ctx.orgId(name),
        gitPermissionSetVersion(current),
        want.map((p) => ({
          git_connection_id: ids.connections.get(p.connection)!,
          ...(p.repo_path
            ? { repo_path: p.repo_path }
            : p.prefix_path
              ? { prefix_path: p.prefix_path }
              : { group_prefix: p.group_prefix! }),
          read_only: p.read_only ?? false,
        })),
      );
    },
    removed.length > 0,
  );
}

/** The roles IdP groups hold in the organization; a group written with no role loses its role here. */
function planOrgIdpGroups(o: OrgPlanner) {
  const { org, name, have, add } = o;
  if (!org.idp_groups) return;
  const live = new Map((have?.idp_groups ?? []).map((g) => [g.name, g] as const));
  for (const g of org.idp_groups.items) {
    const h = live.get(g.name);
    if (!g.role) continue;
    const rid = roleId(o, g.role, 'org', o.at('idp_groups', g.name));
    if (!h || !h.role) {
      add(
        name,
        'idp_group',
        g.name,
        'create',
        2,
        `Give the IdP group ${g.name} the role ${g.role} in ${name}`,
        [{ field: 'role', before: null, after: g.role }],
        async (ctx) => {
          await ctx.upstream.call('idpGroups.organization.roles.assign', {
            params: { org_id: ctx.orgId(name), idp_group_name: g.name },
            body: { role_id: rid },
          });
        },
      );
    } else if (h.role !== g.role) {
      add(
        name,
        'idp_group',
        g.name,
        'update',
        2,
        `Change the role of the IdP group ${g.name} in ${name}`,
        [{ field: 'role', before: h.role, after: g.role }],
        async (ctx) => {
          await ctx.upstream.call('idpGroups.organization.roles.update', {
            params: { org_id: ctx.orgId(name), idp_group_name: g.name },
            body: { role_id: rid },
          });
        },
      );
    }
  }
  const listed = new Set(org.idp_groups.items.filter((g) => g.role).map((g) => g.name));
  const nulls = new Set(org.idp_groups.items.filter((g) => !g.role).map((g) => g.name));
  for (const h of have?.idp_groups ?? []) {
    if (listed.has(h.name) || (!nulls.has(h.name) && !o.deletes(org.idp_groups))) continue;
    add(
      name,
      'idp_group',
      h.name,
      'delete',
      8,
      `Remove the role of the IdP group ${h.name} in ${name}`,
      [{ field: 'role', before: h.role ?? null, after: null }],
      async (ctx) => {
        await ctx.upstream.call('idpGroups.organization.roles.remove', {
          params: { org_id: ctx.orgId(name), idp_group_name: h.name },
        });
      },
    );
  }
}

/** Knowledge notes, by folder and name; a note's folder must exist (the document does not create folders). */
function planNotes(o: OrgPlanner) {
  const { org, name, have, add, orgIds } = o;
  if (!org.notes) return;
  const live = new Map((have?.notes ?? []).map((n) => [noteKey(n), n] as const));
  const folders = orgIds()!.folders;
  for (const n of org.notes.items) {
    const k = noteKey(n);
    const h = live.get(k);
    const folder = normalizeFolder(n.folder);
    if (folder !== '/' && !folders.has(folder)) {
      o.errors.push({
        path: o.at('notes', noteLabel(n)),
        line: null,
        column: null,
        message: `The folder ${folder} does not exist in ${name}: create it on the Knowledge screen, or put the note in another folder`,
      });
    }
    const fields = fieldDiff({ ...n, folder: undefined, name: undefined }, h ? { ...h } : undefined);
    const body = (base?: typeof h) => ({
      name: n.name,
      trigger_description: n.trigger,
      trigger: n.trigger,
      body: n.body,
      folder_id: folder === '/' ? null : folders.get(folder)!,
      is_enabled: n.enabled ?? base?.enabled ?? true,
      pinned_repo: n.pinned_repo !== undefined ? n.pinned_repo : (base?.pinned_repo ?? null),
    });
    if (!h) {
      add(
        name,
        'note',
        noteLabel(n),
        'create',
        3,
        `Create the note ${noteLabel(n)} in ${name}`,
        fields,
        async (ctx) => {
          await ctx.upstream.call('knowledge.create', { params: { org_id: ctx.orgId(name) }, body: body() });
        },
      );
    } else if (fields.length > 0) {
      add(
        name,
        'note',
        noteLabel(n),
        'update',
        3,
        `Change ${fields.map((f) => f.field).join(', ')} of the note ${noteLabel(n)} in ${name}`,
        fields,
        async (ctx) => {
          await ctx.upstream.call('knowledge.update', {
            params: { org_id: ctx.orgId(name), note_id: orgIds()!.notes.get(k)! },
            body: body(h),
          });
        },
      );
    }
  }
  if (!o.deletes(org.notes)) return;
  const keys = new Set(org.notes.items.map(noteKey));
  for (const [k, h] of live) {
    if (keys.has(k)) continue;
    add(name, 'note', noteLabel(h), 'delete', 7, `Delete the note ${noteLabel(h)} in ${name}`, [], async (ctx) => {
      await ctx.upstream.call('knowledge.delete', {
        params: { org_id: ctx.orgId(name), note_id: orgIds()!.notes.get(k)! },
      });
    });
  }
}

/** Secrets, whose values come from environment variables the apply request carries. */
function planSecrets(o: OrgPlanner) {
  const { org, name, have, add, orgIds, secretEnv } = o;
  if (!org.secrets) return;
  const live = new Map((have?.secrets ?? []).map((s) => [s.key, s] as const));
  const create = (s: SecretItem) => async (ctx: StepContext) => {
    await ctx.upstream.call('secrets.create', {
      params: { org_id: ctx.orgId(name) },
      body: {
        type: s.type,
        key: s.key,
        value: ctx.secretValue(s.value_from_env),
        is_sensitive: s.is_sensitive ?? true,
        note: s.note ?? null,
      },
    });
  };
  for (const s of org.secrets.items) {
    const h = live.get(s.key);
    const valueField = { field: 'value', before: null, after: `from the environment variable ${s.value_from_env}` };
    if (!h) {
      secretEnv.add(s.value_from_env);
      add(
        name,
        'secret',
        s.key,
        'create',
        3,
        `Create the ${s.type} secret ${s.key} in ${name}`,
        [{ field: 'type', before: null, after: s.type }, valueField],
        create(s),
      );
      continue;
    }
    const fields = fieldDiff({ type: s.type, note: s.note, is_sensitive: s.is_sensitive }, h as LiveSecret);
    if (fields.length > 0) {
      // The API has no update for a secret: it is deleted and created again with the value from the environment.
      secretEnv.add(s.value_from_env);
      add(
        name,
        'secret',
        s.key,
        'update',
        3,
        `Replace the secret ${s.key} in ${name} (deleted and created again: ${fields.map((f) => f.field).join(', ')} changed)`,
        [...fields, valueField],
        async (ctx) => {
          await ctx.upstream.call('secrets.delete', {
            params: { org_id: ctx.orgId(name), secret_id: orgIds()!.secrets.get(s.key)! },
          });
          await create(s)(ctx);
        },
        true,
      );
    }
  }
  if (!o.deletes(org.secrets)) return;
  const keys = new Set(org.secrets.items.map((s) => s.key));
  for (const h of have?.secrets ?? []) {
    if (keys.has(h.key)) continue;
    add(name, 'secret', h.key, 'delete', 7, `Delete the secret ${h.key} in ${name}`, [], async (ctx) => {
      await ctx.upstream.call('secrets.delete', {
        params: { org_id: ctx.orgId(name), secret_id: orgIds()!.secrets.get(h.key)! },
      });
    });
  }
}

/** Schedules, after the playbooks they run (the organization's or the enterprise's, by title). */
function planSchedules(o: OrgPlanner) {
  const { org, name, have, add, orgIds, ids } = o;
  if (!org.schedules) return;
  const live = new Map((have?.schedules ?? []).map((s) => [s.name, s] as const));
  const books = new Set([
    ...(org.playbooks?.items.map((p) => p.title) ?? []),
    ...(have?.playbooks?.map((p) => p.title) ?? []),
    ...(o.config.enterprise.playbooks?.items.map((p) => p.title) ?? []),
  ]);
  for (const s of org.schedules.items) {
    const h = live.get(s.name);
    if (
      s.playbook &&
      !books.has(s.playbook) &&
      !orgIds()!.playbooks.has(s.playbook) &&
      !ids.entPlaybooks.has(s.playbook)
    ) {
      o.errors.push({
        path: o.at('schedules', s.name),
        line: null,
        column: null,
        message: `No playbook titled “${s.playbook}” in ${name} or the enterprise (write it under playbooks)`,
      });
    }
    const fields = fieldDiff({ ...s, name: undefined }, h, { tags: (v) => v ?? [] });
    const withPlaybook = (out: UpdateScheduleBody): UpdateScheduleBody => {
      if (s.playbook === undefined) return out;
      if (s.playbook === null) return { ...out, playbook_id: null };
      const id = orgIds()!.playbooks.get(s.playbook) ?? ids.entPlaybooks.get(s.playbook);
      return { ...out, playbook_id: id };
    };
    if (!h) {
      add(name, 'schedule', s.name, 'create', 4, `Create the schedule ${s.name} in ${name}`, fields, async (ctx) => {
        const body = createScheduleBody(s, withPlaybook(scheduleBody(s, null)));
        await ctx.upstream.call('schedules.create', { params: { org_id: ctx.orgId(name) }, body });
      });
    } else if (fields.length > 0) {
      const changed = fields.map((f) => f.field);
      add(
        name,
        'schedule',
        s.name,
        'update',
        4,
        `Change ${changed.join(', ')} of the schedule ${s.name} in ${name}`,
        fields,
        async (ctx) => {
          const patch = withPlaybook(scheduleBody(s, changed));
          if (!changed.includes('playbook')) delete patch.playbook_id;
          await ctx.upstream.call('schedules.update', {
            params: { org_id: ctx.orgId(name), schedule_id: orgIds()!.schedules.get(s.name)! },
            body: patch,
          });
        },
      );
    }
  }
  if (!o.deletes(org.schedules)) return;
  const names = new Set(org.schedules.items.map((s) => s.name));
  for (const h of have?.schedules ?? []) {
    if (names.has(h.name)) continue;
    add(name, 'schedule', h.name, 'delete', 6, `Delete the schedule ${h.name} in ${name}`, [], async (ctx) => {
      await ctx.upstream.call('schedules.delete', {
        params: { org_id: ctx.orgId(name), schedule_id: orgIds()!.schedules.get(h.name)! },
      });
    });
  }
}

type ScheduleDocItem = NonNullable<ExpandedOrganization['schedules']>['items'][number];

/** The fields a schedule writes (only those `changed`, when given); its playbook goes by id, set apart. */
function scheduleBody(s: ScheduleDocItem, changed: string[] | null): UpdateScheduleBody {
  const out: Record<string, unknown> = {};
  for (const [f, v] of Object.entries(s)) {
    if (v === undefined || f === 'playbook' || (changed && !changed.includes(f))) continue;
    out[f] = v;
  }
  return out as UpdateScheduleBody;
}

/** A create body from the update-shaped fields: no `run_as_user_id`, and unset choices left to the API. */
function createScheduleBody(s: ScheduleDocItem, fields: UpdateScheduleBody): CreateScheduleBody {
  const { run_as_user_id: _runAs, schedule_type: type, notify_on: notify, enabled, ...rest } = fields;
  return {
    ...rest,
    name: s.name,
    prompt: s.prompt,
    ...(type ? { schedule_type: type } : {}),
    ...(notify ? { notify_on: notify } : {}),
    ...(enabled !== null && enabled !== undefined ? { enabled } : {}),
  };
}
