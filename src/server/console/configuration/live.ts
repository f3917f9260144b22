/**
 * Live state read from the API in the document's own shape (names, not ids), so that the planner compares like
 * with like, `export` writes it as a document, and the fingerprint of a plan is a hash of exactly what the plan
 * was computed from (fields the document cannot set — timestamps, counters, next runs — never move it).
 *
 * Only what a document manages is read (`LiveNeeds`): an organization's notes are read when the document
 * describes its notes. Ids stay beside the view (`LiveIds`) for the apply.
 */
import { createHash } from 'node:crypto';
import type {
  GitPermissionItem,
  IdpGroupItem,
  NoteItem,
  PlaybookItem,
  ScheduleItem,
  ServiceUserItem,
} from '../../../api/config-document/schema';
import { noteKey, normalizeFolder, type ExpandedConfig, ORG_SET_FIELDS } from '../../../api/config-document/parse';
import type { GitConnection, GitPermission } from '../../../api/git-permissions/resources';
import type { Organization } from '../../../api/operations/organizations';
import type { KnowledgeNote, FolderSummary } from '../../../api/operations/knowledge';
import type { Playbook } from '../../../api/operations/playbooks';
import type { Schedule } from '../../../api/operations/schedules';
import type { Role } from '../../../api/operations/members';
import type { OperationId, Operations } from '../../../api/operations';
import type { ResponseOf } from '../../../api/operations/define';
import type { CallArgs, UpstreamClient } from '../upstream-client';

/** A secret as live state shows it: never a value (the API never answers one). */
export interface LiveSecret {
  key: string;
  type: string;
  note?: string | null;
  is_sensitive?: boolean;
}

export interface LiveOrg {
  name: string;
  org_id: string;
  acu_limit: number | null;
  session_acu_limit: number | null;
  allowed_tags?: string[];
  default_tag?: string | null;
  git_permissions?: GitPermissionItem[];
  notes?: NoteItem[];
  playbooks?: PlaybookItem[];
  schedules?: ScheduleItem[];
  secrets?: LiveSecret[];
  idp_groups?: IdpGroupItem[];
}

export interface LiveView {
  enterprise: {
    acu_limit?: number | null;
    ip_access_list?: string[];
    org_group_limits?: Record<string, { organizations: string[]; max_cycle_acus?: number | null }>;
    idp_groups?: IdpGroupItem[];
    service_users?: ServiceUserItem[];
    playbooks?: PlaybookItem[];
  };
  organizations: LiveOrg[];
}

/** Ids the apply needs, by the document's keys. */
export interface LiveIds {
  orgs: Map<string, string>;
  orgNames: Map<string, string>;
  connections: Map<string, string>;
  roles: Role[];
  self: string | null;
  registeredIdpGroups: Set<string>;
  serviceUsers: Map<string, string>;
  entPlaybooks: Map<string, string>;
  perOrg: Map<
    string,
    {
      folders: Map<string, string>;
      notes: Map<string, string>;
      playbooks: Map<string, string>;
      schedules: Map<string, string>;
      secrets: Map<string, string>;
      git: GitPermission[];
    }
  >;
  ipList: string[] | null;
}

export type OrgKind = 'settings' | 'tags' | 'default_tag' | 'git' | (typeof ORG_SET_FIELDS)[number];

export interface LiveNeeds {
  enterprise: Set<'acu_limit' | 'ip_access_list' | 'org_group_limits' | 'idp_groups' | 'service_users' | 'playbooks'>;
  /** Per organization name: what to read; '*' stands for every organization. */
  orgs: Map<string, Set<OrgKind>>;
  all: boolean;
}

/** What reading `config` needs (everything, for export). */
export function needsOf(config: ExpandedConfig | 'all'): LiveNeeds {
  if (config === 'all') {
    return {
      enterprise: new Set([
        'acu_limit',
        'ip_access_list',
        'org_group_limits',
        'idp_groups',
        'service_users',
        'playbooks',
      ]),
      orgs: new Map(),
      all: true,
    };
  }
  const enterprise = new Set<LiveNeeds['enterprise'] extends Set<infer T> ? T : never>();
  for (const k of Object.keys(config.enterprise) as (keyof typeof config.enterprise)[]) enterprise.add(k);
  const orgs = new Map<string, Set<OrgKind>>();
  for (const o of config.organizations.items) {
    const kinds = new Set<OrgKind>();
    if (o.allowed_tags !== undefined) kinds.add('tags');
    if (o.default_tag !== undefined) kinds.add('default_tag');
    if (o.git_permissions !== undefined) kinds.add('git');
    for (const f of ORG_SET_FIELDS) if (o[f] !== undefined) kinds.add(f);
    orgs.set(o.name, kinds);
  }
  return { enterprise, orgs, all: false };
}

const MAX_ITEMS = 5_000;

const connectionName = (c: GitConnection) => c.name?.trim() || c.host;

function withoutUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function gitItemOf(p: GitPermission, names: Map<string, string>): GitPermissionItem {
  const item: GitPermissionItem = { connection: names.get(p.git_connection_id) ?? p.git_connection_id };
  if (p.repo_path) item.repo_path = p.repo_path;
  else if (p.prefix_path) item.prefix_path = p.prefix_path;
  else if (p.group_prefix) item.group_prefix = p.group_prefix;
  item.read_only = p.read_only ?? false;
  return item;
}

export const noteItemOf = (n: KnowledgeNote): NoteItem =>
  withoutUndefined({
    name: n.name,
    folder: normalizeFolder(n.folder_path) === '/' ? undefined : normalizeFolder(n.folder_path),
    trigger: n.trigger,
    body: n.body,
    enabled: n.is_enabled,
    pinned_repo: n.pinned_repo ?? null,
  });

export const playbookItemOf = (p: Playbook): PlaybookItem => ({ title: p.title, body: p.body, macro: p.macro ?? null });

export function scheduleItemOf(s: Schedule): ScheduleItem {
  const playbook = (s as { playbook?: { title?: string | null } | null }).playbook;
  return withoutUndefined({
    name: s.name,
    prompt: s.prompt,
    schedule_type: s.schedule_type,
    frequency: s.schedule_type === 'one_time' ? undefined : (s.frequency ?? undefined),
    scheduled_at:
      s.schedule_type === 'one_time' ? ((s as { scheduled_at?: string | null }).scheduled_at ?? undefined) : undefined,
    enabled: s.enabled,
    notify_on: s.notify_on as ScheduleItem['notify_on'],
    tags: s.tags ?? [],
    bypass_approval: s.bypass_approval ?? false,
    playbook: playbook?.title ?? null,
  });
}

/** The items of a paginated list operation, as its answer types them. */
type ItemOf<I extends OperationId> = ResponseOf<Operations[I]> extends { items: (infer T)[] } ? T : never;

/** What reading live state shares: the API, the request's signal, the ids found and the warnings. */
interface Reader {
  upstream: UpstreamClient;
  signal: AbortSignal | undefined;
  ids: LiveIds;
  warnings: string[];
  /** Every item of a list (bounded by `MAX_ITEMS`). */
  all<I extends OperationId>(id: I, args?: CallArgs<I>): Promise<ItemOf<I>[]>;
}

/** The live state a document's plan is computed from, with the ids its apply uses. */
export async function readLive(
  upstream: UpstreamClient,
  needs: LiveNeeds,
  signal?: AbortSignal,
): Promise<{ view: LiveView; ids: LiveIds; fingerprint: string; warnings: string[] }> {
  const r: Reader = {
    upstream,
    signal,
    ids: emptyIds(),
    warnings: [],
    all: async (id, args = {}) =>
      (await upstream.all(id, { ...args, maxItems: MAX_ITEMS, signal })) as ItemOf<typeof id>[],
  };
  const orgList = await readOrganizations(r);
  const wantsGit = needs.all || [...needs.orgs.values()].some((k) => k.has('git'));
  const wantsRoles =
    needs.all ||
    needs.enterprise.has('idp_groups') ||
    needs.enterprise.has('service_users') ||
    [...needs.orgs.values()].some((k) => k.has('idp_groups'));
  const connNames = wantsGit ? await readConnections(r) : new Map<string, string>();
  if (wantsRoles) r.ids.roles = await r.all('roles.list');

  const view: LiveView = { enterprise: await readEnterprise(r, needs.enterprise), organizations: [] };
  for (const o of orgList) {
    if (r.ids.orgs.get(o.name) !== o.org_id) continue;
    const kinds: Set<OrgKind> | undefined = needs.all
      ? new Set<OrgKind>(['tags', 'default_tag', 'git', ...ORG_SET_FIELDS])
      : needs.orgs.get(o.name);
    view.organizations.push(await readOrganization(r, o, kinds, connNames));
  }
  return { view, ids: r.ids, fingerprint: fingerprintOf(view), warnings: r.warnings };
}

function emptyIds(): LiveIds {
  return {
    orgs: new Map(),
    orgNames: new Map(),
    connections: new Map(),
    roles: [],
    self: null,
    registeredIdpGroups: new Set(),
    serviceUsers: new Map(),
    entPlaybooks: new Map(),
    perOrg: new Map(),
    ipList: null,
  };
}

/** Every organization, with its id by name (the first of two with one name) and its name by id. */
async function readOrganizations({ all, ids, warnings }: Reader): Promise<Organization[]> {
  const orgList = await all('organizations.list');
  for (const o of orgList) {
    if (ids.orgs.has(o.name))
      warnings.push(`Two organizations are named “${o.name}”: the document manages the first one only`);
    else ids.orgs.set(o.name, o.org_id);
    ids.orgNames.set(o.org_id, o.name);
  }
  return orgList;
}

/** Git connections by the name the screens show (its host when it has none); answers names by id. */
async function readConnections({ all, ids }: Reader): Promise<Map<string, string>> {
  const connNames = new Map<string, string>();
  for (const c of await all('gitConnections.list')) {
    connNames.set(c.git_connection_id, connectionName(c));
    if (!ids.connections.has(connectionName(c))) ids.connections.set(connectionName(c), c.git_connection_id);
  }
  return connNames;
}

async function readEnterprise(r: Reader, e: LiveNeeds['enterprise']): Promise<LiveView['enterprise']> {
  const { upstream, signal, ids, all } = r;
  const out: LiveView['enterprise'] = {};
  if (e.has('acu_limit')) {
    const limits = await all('acuLimits.list');
    out.acu_limit = limits.find((l) => l.scope === 'enterprise')?.cycle_acu_limit ?? null;
  }
  if (e.has('ip_access_list')) {
    ids.ipList = (await upstream.call('ipAccessList.get', { signal })).ip_ranges;
    out.ip_access_list = ids.ipList;
  }
  if (e.has('org_group_limits')) {
    const groups = (await upstream.call('orgGroupLimits.get', { signal })).groups;
    out.org_group_limits = Object.fromEntries(
      Object.entries(groups).map(([name, g]) => [
        name,
        { organizations: g.org_ids.map((id) => ids.orgNames.get(id) ?? id), max_cycle_acus: g.max_cycle_acus ?? null },
      ]),
    );
  }
  if (e.has('idp_groups')) {
    const groups = await all('idpGroups.roles.list');
    out.idp_groups = groups.map((g) => {
      ids.registeredIdpGroups.add(g.idp_group_name);
      const ent = g.role_assignments?.find((a) => !a.org_id);
      return { name: g.idp_group_name, role: ent?.role.role_name ?? null };
    });
  }
  if (e.has('service_users')) out.service_users = await readServiceUsers(r);
  if (e.has('playbooks')) {
    const books = (await all('playbooks.enterprise.list', { query: { access_type: 'enterprise' } })).filter(
      (p) => p.access_type === 'enterprise',
    );
    out.playbooks = dedupe(books, (p) => p.title, 'enterprise playbook', r.warnings).map((p) => {
      ids.entPlaybooks.set(p.title, p.playbook_id);
      return playbookItemOf(p);
    });
  }
  return out;
}

/** Service users that are not deleted, and which one is the console's own credential. */
async function readServiceUsers({ upstream, signal, ids, all, warnings }: Reader): Promise<ServiceUserItem[]> {
  const users = (await all('serviceUsers.list')).filter((u) => !u.deleted_at);
  try {
    ids.self = (await upstream.call('self.get', { signal })).service_user_id ?? null;
  } catch {
    ids.self = null;
  }
  const out: ServiceUserItem[] = [];
  for (const u of users) {
    if (ids.serviceUsers.has(u.name)) {
      warnings.push(`Two service users are named “${u.name}”: the document manages the first one only`);
      continue;
    }
    ids.serviceUsers.set(u.name, u.service_user_id);
    const ent = u.role_assignments.find((a) => !a.org_id);
    out.push({ name: u.name, role: ent?.role.role_name ?? null });
  }
  return out;
}

/** One organization's limits and what the document manages of it (`kinds`), with the ids the apply needs. */
async function readOrganization(
  r: Reader,
  o: Organization,
  kinds: Set<OrgKind> | undefined,
  connNames: Map<string, string>,
): Promise<LiveOrg> {
  const { upstream, signal, all, warnings } = r;
  const live: LiveOrg = {
    name: o.name,
    org_id: o.org_id,
    acu_limit: o.max_cycle_acu_limit ?? null,
    session_acu_limit: o.max_session_acu_limit ?? null,
  };
  if (!kinds) return live;
  const orgIds = {
    folders: new Map(),
    notes: new Map(),
    playbooks: new Map(),
    schedules: new Map(),
    secrets: new Map(),
    git: [] as GitPermission[],
  };
  r.ids.perOrg.set(o.name, orgIds);
  const params = { org_id: o.org_id };
  const where = `in ${o.name}`;
  if (kinds.has('tags')) live.allowed_tags = (await upstream.call('organizations.tags.get', { params, signal })).tags;
  if (kinds.has('default_tag')) {
    live.default_tag = (await upstream.call('organizations.defaultTag.get', { params, signal })).default_tag ?? null;
  }
  if (kinds.has('git')) {
    orgIds.git = await all('gitPermissions.list', { params });
    live.git_permissions = orgIds.git.map((p) => gitItemOf(p, connNames));
  }
  if (kinds.has('notes')) {
    const tree = await upstream.call('knowledge.folders.list', { params, signal });
    for (const f of tree.folders as FolderSummary[]) orgIds.folders.set(normalizeFolder(f.path), f.folder_id);
    const notes = await all('knowledge.list', { params });
    live.notes = dedupe(notes, (n) => noteKey({ name: n.name, folder: n.folder_path }), `note ${where}`, warnings).map(
      (n) => {
        orgIds.notes.set(noteKey({ name: n.name, folder: n.folder_path }), n.note_id);
        return noteItemOf(n);
      },
    );
  }
  if (kinds.has('playbooks')) {
    const books = (await all('playbooks.list', { params })).filter((p) => p.access_type !== 'enterprise');
    live.playbooks = dedupe(books, (p) => p.title, `playbook ${where}`, warnings).map((p) => {
      orgIds.playbooks.set(p.title, p.playbook_id);
      return playbookItemOf(p);
    });
  }
  if (kinds.has('schedules')) {
    const schedules = await all('schedules.list', { params });
    live.schedules = dedupe(schedules, (s) => s.name, `schedule ${where}`, warnings).map((s) => {
      orgIds.schedules.set(s.name, s.scheduled_session_id);
      return scheduleItemOf(s);
    });
  }
  if (kinds.has('secrets')) {
    const secrets = (await all('secrets.list', { params })).filter((s) => s.access_type !== 'personal' && s.key);
    live.secrets = dedupe(secrets, (s) => s.key ?? '', `secret ${where}`, warnings).map((s) => {
      orgIds.secrets.set(s.key!, s.secret_id);
      return { key: s.key!, type: s.secret_type, note: s.note ?? null, is_sensitive: s.is_sensitive };
    });
  }
  if (kinds.has('idp_groups')) {
    const groups = await all('idpGroups.organization.roles.list', { params });
    live.idp_groups = groups.map((g) => ({
      name: g.idp_group_name,
      role: g.role_assignments?.find((a) => a.org_id === o.org_id)?.role.role_name ?? null,
    }));
  }
  return live;
}

function dedupe<T>(items: T[], key: (t: T) => string, what: string, warnings: string[]): T[] {
  const seen = new Set<string>();
  return items.filter((i) => {
    const k = key(i);
    if (seen.has(k)) {
      warnings.push(
        `Two of the ${what.split(' ')[0]}s ${what.split(' ').slice(1).join(' ')} share the key “${k.replace('\u0000', ' ')}”: the document manages the first one only`,
      );
      return false;
    }
    seen.add(k);
    return true;
  });
}

/** A hash of live state as the plan saw it (sorted keys, so the order of reading never moves it). */
export function fingerprintOf(view: LiveView): string {
  return `lv1-${createHash('sha256').update(stableJson(view)).digest('hex').slice(0, 32)}`;
}

export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}
