/**
 * Reads a configuration document (YAML, or JSON which is YAML too) into the expanded configuration the planner
 * works on: bounded (size, aliases, resources), checked against the schema, fragments merged into the
 * organizations that include them, duplicate keys refused. Every error carries its location — the file, the
 * path in the document and the line — so an editor, the CLI and the Configuration screen all point at it.
 * Used by the console server (which decides) and the screen (which shows errors at their lines as one types).
 */
import { isNode, LineCounter, parseDocument, type Document } from 'yaml';
import {
  CONFIG_DOCUMENT_LIMITS,
  ConfigDocument,
  type EnterpriseSettings,
  type Fragment,
  type GitPermissionItem,
  type IdpGroupItem,
  type NoteItem,
  type OrganizationItem,
  type PlaybookItem,
  type ScheduleItem,
  type SecretItem,
  type ServiceUserItem,
} from './schema';

export type DocumentError = {
  file: string;
  /** Where in the document, as `organizations[2].notes[0].name` ('' for the whole document). */
  path: string;
  /** 1-based; null when the error has no place (e.g. the document is too large). */
  line: number | null;
  column: number | null;
  message: string;
};

export type Manage = 'all' | 'listed';
export interface ManagedSet<T> {
  manage: Manage;
  items: T[];
}

type OrgSettings = Omit<OrganizationItem, 'name' | 'include' | keyof SetFields> & {
  [K in keyof SetFields]?: ManagedSet<SetFields[K]>;
};
interface SetFields {
  notes: NoteItem;
  playbooks: PlaybookItem;
  schedules: ScheduleItem;
  secrets: SecretItem;
  idp_groups: IdpGroupItem;
}
export const ORG_SET_FIELDS = ['notes', 'playbooks', 'schedules', 'secrets', 'idp_groups'] as const;

export type ExpandedOrganization = OrgSettings & {
  name: string;
  /** The fragments it includes, in order (shown with the plan). */
  include: string[];
  /** Where the organization is written (its line), for errors found later. */
  path: string;
};

export interface ExpandedEnterprise {
  acu_limit?: number | null;
  ip_access_list?: string[];
  org_group_limits?: NonNullable<EnterpriseSettings['org_group_limits']>;
  idp_groups?: ManagedSet<IdpGroupItem>;
  service_users?: ManagedSet<ServiceUserItem>;
  playbooks?: ManagedSet<PlaybookItem>;
}

export interface ExpandedConfig {
  enterprise: ExpandedEnterprise;
  organizations: ManagedSet<ExpandedOrganization>;
}

export interface ParsedConfig {
  document: ConfigDocument | null;
  expanded: ExpandedConfig | null;
  errors: DocumentError[];
  /** How many errors there were beyond those listed. */
  more_errors: number;
  resources: number;
  /** The line and column of a path (`organizations[2].notes`), or of the nearest enclosing node written. */
  locate(path: string): { line: number | null; column: number | null };
}

// ---------------------------------------------------------------- keys

/** A folder path as the API writes it: `/`, or `/A/B` without a trailing slash. */
export function normalizeFolder(folder: string | null | undefined): string {
  const parts = (folder ?? '')
    .split('/')
    .map((s) => s.trim())
    .filter(Boolean);
  return `/${parts.join('/')}`;
}

export const noteKey = (n: { name: string; folder?: string | null }) => `${normalizeFolder(n.folder)}\u0000${n.name}`;
export const noteLabel = (n: { name: string; folder?: string | null }) => {
  const f = normalizeFolder(n.folder);
  return f === '/' ? n.name : `${f}/${n.name}`;
};
export function gitItemKey(p: GitPermissionItem): string {
  const field = p.repo_path ? 'repo_path' : p.prefix_path ? 'prefix_path' : 'group_prefix';
  return `${p.connection}\u0000${field}\u0000${p[field] ?? ''}`;
}

const SET_KEYS: { [K in keyof SetFields]: (item: SetFields[K]) => string } = {
  notes: noteKey,
  playbooks: (p) => p.title,
  schedules: (s) => s.name,
  secrets: (s) => s.key,
  idp_groups: (g) => g.name,
};

// ---------------------------------------------------------------- locations

export function pathText(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}

function locate(doc: Document, counter: LineCounter, path: readonly PropertyKey[]) {
  // The deepest node that exists on the path (a missing field is reported where its object is).
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n) as unknown[], true);
    if (isNode(node) && node.range) {
      const pos = counter.linePos(node.range[0]);
      return { line: pos.line, column: pos.col };
    }
  }
  return { line: null, column: null };
}

// ---------------------------------------------------------------- parse

const asSet = <T>(v: T[] | { manage: Manage; items: T[] } | undefined): ManagedSet<T> | undefined =>
  v === undefined
    ? undefined
    : Array.isArray(v)
      ? { manage: 'listed', items: v }
      : { manage: v.manage, items: v.items };

/** Parses, checks and expands a document; `errors` is empty exactly when `expanded` is set. */
export function parseConfigDocument(text: string, file = 'document'): ParsedConfig {
  const errors: DocumentError[] = [];
  const more = 0;
  let locatePath: ParsedConfig['locate'] = () => ({ line: null, column: null });
  const fail = (): ParsedConfig => ({
    locate: locatePath,
    document: null,
    expanded: null,
    errors: errors.slice(0, CONFIG_DOCUMENT_LIMITS.errors),
    more_errors: more + Math.max(0, errors.length - CONFIG_DOCUMENT_LIMITS.errors),
    resources: 0,
  });
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > CONFIG_DOCUMENT_LIMITS.bytes) {
    errors.push({
      file,
      path: '',
      line: null,
      column: null,
      message: `The document is ${bytes.toLocaleString('en-US')} bytes; at most ${CONFIG_DOCUMENT_LIMITS.bytes.toLocaleString('en-US')} bytes are accepted. Split it, or move repeated settings into fragments.`,
    });
    return fail();
  }
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  for (const e of [...doc.errors]) {
    const pos = e.linePos?.[0];
    errors.push({
      file,
      path: '',
      line: pos?.line ?? null,
      column: pos?.col ?? null,
      message: e.message.split('\n')[0]!,
    });
  }
  if (errors.length > 0) return fail();
  let raw: unknown;
  try {
    // Aliases are bounded: a "billion laughs" document stops here.
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    errors.push({
      file,
      path: '',
      line: null,
      column: null,
      message: err instanceof Error ? err.message : 'unreadable document',
    });
    return fail();
  }
  if (raw === null || raw === undefined) {
    errors.push({ file, path: '', line: 1, column: 1, message: 'The document is empty: start with `version: 1`' });
    return fail();
  }
  locatePath = (path) => locate(doc, counter, parsePath(path));
  const at = (path: readonly PropertyKey[], message: string) =>
    errors.push({ file, path: pathText(path), ...locate(doc, counter, path), message });
  const parsed = ConfigDocument.safeParse(raw);
  if (!parsed.success) {
    // A set is a list or `{ manage, items }`: report the branch the writer meant (nested sets too).
    const report = (issue: (typeof parsed.error.issues)[number], prefix: PropertyKey[]) => {
      const path = [...prefix, ...issue.path];
      if (issue.code === 'invalid_union' && issue.errors.length > 0) {
        const branch = Array.isArray(getAt(raw, path)) ? issue.errors[0]! : (issue.errors[1] ?? issue.errors[0]!);
        for (const sub of branch) report(sub as (typeof parsed.error.issues)[number], path);
      } else {
        at(path, issue.message);
      }
    };
    for (const issue of parsed.error.issues) report(issue, []);
    return fail();
  }
  const document = parsed.data;
  const expanded = expand(document, at);
  if (errors.length > 0 || !expanded) return fail();
  const resources = countResources(expanded);
  if (resources > CONFIG_DOCUMENT_LIMITS.resources) {
    at(
      [],
      `The document describes ${resources.toLocaleString('en-US')} resources once fragments are expanded; at most ${CONFIG_DOCUMENT_LIMITS.resources.toLocaleString('en-US')} are accepted`,
    );
    return fail();
  }
  return { document, expanded, errors: [], more_errors: 0, resources, locate: locatePath };
}

/** `organizations[2].notes (Deploy)` → ['organizations', 2, 'notes'] (a trailing note in brackets is dropped). */
export function parsePath(text: string): PropertyKey[] {
  const out: PropertyKey[] = [];
  const re = /([^.[\]\s]+)|\[(\d+)\]/g;
  for (const m of text.replace(/\s*\(.*\)\s*$/, '').matchAll(re)) out.push(m[2] !== undefined ? Number(m[2]) : m[1]!);
  return out;
}

function getAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let v = value;
  for (const p of path) v = v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined;
  return v;
}

type At = (path: readonly PropertyKey[], message: string) => void;

function mergeSet<T>(into: ManagedSet<T> | undefined, from: ManagedSet<T>, key: (t: T) => string): ManagedSet<T> {
  if (!into) return { manage: from.manage, items: [...from.items] };
  const byKey = new Map(into.items.map((i) => [key(i), i] as const));
  for (const i of from.items) byKey.set(key(i), i);
  return { manage: into.manage === 'all' || from.manage === 'all' ? 'all' : 'listed', items: [...byKey.values()] };
}

/** A set as the document may write it: a plain list, or `{ manage, items }`. */
type WrittenSet<T> = T[] | { manage: Manage; items: T[] };

const isSetField = (k: string): k is keyof SetFields => (ORG_SET_FIELDS as readonly string[]).includes(k);

/** Merges the set `field` as `src` writes it into `out`, by the set's key. */
function mergeSetField<K extends keyof SetFields>(
  out: { [F in K]?: ManagedSet<SetFields[F]> },
  field: K,
  written: WrittenSet<SetFields[K]> | undefined,
) {
  const set = asSet(written);
  if (set) out[field] = mergeSet(out[field], set, SET_KEYS[field]);
}

/** Applies `src` over `acc`: whole values replace, sets merge by key (the later item wins). */
function mergeSettings(acc: OrgSettings, src: Fragment | OrganizationItem): OrgSettings {
  const out: OrgSettings = { ...acc };
  for (const [k, v] of Object.entries(src)) {
    if (v === undefined || k === 'name' || k === 'include') continue;
    if (isSetField(k)) mergeSetField(out, k, src[k]);
    else (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

function checkUnique<T>(
  items: readonly T[],
  key: (t: T) => string,
  label: (t: T) => string,
  path: PropertyKey[],
  at: At,
  what: string,
) {
  const seen = new Set<string>();
  items.forEach((item) => {
    const k = key(item);
    if (seen.has(k)) at(path, `${what} “${label(item)}” is named twice here: each ${what} appears once`);
    seen.add(k);
  });
}

/** Refuses an item written twice in one set of one organization (by the set's key). */
function checkUniqueSet<K extends keyof SetFields>(
  field: K,
  written: WrittenSet<SetFields[K]> | undefined,
  path: PropertyKey[],
  at: At,
) {
  const own = asSet(written);
  if (!own) return;
  const key = SET_KEYS[field];
  checkUnique(
    own.items,
    key,
    (t) => key(t).replace('\u0000', ' ').trim(),
    [...path, field],
    at,
    field.replace(/s$/, '').replace('_', ' '),
  );
}

function expand(doc: ConfigDocument, at: At): ExpandedConfig | null {
  const fragments = doc.fragments ?? {};
  const orgSet = asSet(doc.organizations) ?? { manage: 'listed' as Manage, items: [] };
  const orgsPath = Array.isArray(doc.organizations) ? ['organizations'] : ['organizations', 'items'];
  const organizations: ExpandedOrganization[] = [];
  const names = new Set<string>();
  orgSet.items.forEach((org, i) => {
    const path = [...orgsPath, i];
    if (names.has(org.name))
      at([...path, 'name'], `The organization “${org.name}” is described twice: describe each organization once`);
    names.add(org.name);
    let acc: OrgSettings = {};
    (org.include ?? []).forEach((name, j) => {
      const fragment = fragments[name];
      if (!fragment) {
        const known = Object.keys(fragments);
        at(
          [...path, 'include', j],
          `No fragment is named “${name}”${known.length ? ` (fragments: ${known.join(', ')})` : ' (the document has no fragments)'}`,
        );
        return;
      }
      acc = mergeSettings(acc, fragment);
    });
    acc = mergeSettings(acc, org);
    // Sets written twice under one organization (its own list) are refused; a fragment's item overridden is not.
    for (const field of ORG_SET_FIELDS) checkUniqueSet(field, org[field], path, at);
    if (acc.git_permissions) {
      checkUnique(
        acc.git_permissions,
        gitItemKey,
        (p) => `${p.connection}: ${p.repo_path ?? p.prefix_path ?? p.group_prefix ?? ''}`,
        [...path, 'git_permissions'],
        at,
        'git permission',
      );
      acc.git_permissions.forEach((p, j) => {
        const set = [p.repo_path, p.prefix_path, p.group_prefix].filter(
          (v) => v !== undefined && v !== null && v !== '',
        );
        if (set.length !== 1)
          at(
            [...path, 'git_permissions', j],
            'A git permission matches repositories in exactly one way: give one of repo_path, prefix_path or group_prefix',
          );
      });
    }
    if (
      acc.allowed_tags &&
      acc.default_tag &&
      acc.allowed_tags.length > 0 &&
      !acc.allowed_tags.includes(acc.default_tag)
    ) {
      at(
        [...path, 'default_tag'],
        `The default tag “${acc.default_tag}” must be one of the organization’s allowed tags`,
      );
    }
    organizations.push({ ...acc, name: org.name, include: org.include ?? [], path: pathText(path) });
  });
  const e = doc.enterprise ?? {};
  const enterprise: ExpandedEnterprise = {
    acu_limit: e.acu_limit,
    ip_access_list: e.ip_access_list,
    org_group_limits: e.org_group_limits,
    idp_groups: asSet(e.idp_groups),
    service_users: asSet(e.service_users),
    playbooks: asSet(e.playbooks),
  };
  for (const [field, key] of [
    ['idp_groups', (g: IdpGroupItem) => g.name],
    ['service_users', (s: ServiceUserItem) => s.name],
    ['playbooks', (p: PlaybookItem) => p.title],
  ] as const) {
    const set = enterprise[field] as ManagedSet<unknown> | undefined;
    if (set)
      checkUnique(
        set.items,
        key as (t: unknown) => string,
        key as (t: unknown) => string,
        ['enterprise', field],
        at,
        field.replace(/s$/, '').replace('_', ' '),
      );
  }
  for (const key of Object.keys(enterprise) as (keyof ExpandedEnterprise)[])
    if (enterprise[key] === undefined) delete enterprise[key];
  return { enterprise, organizations: { manage: orgSet.manage, items: organizations } };
}

/** Resources the expanded document describes (the bound of CONFIG_DOCUMENT_LIMITS.resources). */
export function countResources(c: ExpandedConfig): number {
  const e = c.enterprise;
  let n =
    (e.acu_limit !== undefined ? 1 : 0) +
    (e.ip_access_list?.length ?? 0) +
    Object.keys(e.org_group_limits ?? {}).length +
    (e.idp_groups?.items.length ?? 0) +
    (e.service_users?.items.length ?? 0) +
    (e.playbooks?.items.length ?? 0);
  for (const o of c.organizations.items) {
    n += 1 + (o.allowed_tags?.length ?? 0) + (o.default_tag !== undefined ? 1 : 0) + (o.git_permissions?.length ?? 0);
    for (const f of ORG_SET_FIELDS) n += o[f]?.items.length ?? 0;
  }
  return n;
}
