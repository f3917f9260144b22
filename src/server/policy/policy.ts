/**
 * Console roles (CONSOLE_POLICY_FILE): who may do what through the console's one credential. The file names
 * roles (API permission names, optionally limited to organizations) and grants (an OIDC group, an email, or
 * the access token and one-time links) that give them. Two roles are built in: `admin` (every permission) and
 * `viewer` (every View… permission). Grants add up. Checked whole at start: every unknown permission or role
 * name is one problem line naming it.
 */
import { readFileSync, statSync } from 'node:fs';
import { z } from 'zod';
import { isPermission, PERMISSIONS, READ_PERMISSIONS, type Permission } from '../../api/permissions';

/** The policy file is small: anything larger is a mistake (a wrong path), not a policy. */
const MAX_POLICY_BYTES = 256 * 1024;
const MAX_ROLES = 200;
const MAX_GRANTS = 1000;
const Name = z.string().min(1).max(200);

const RoleFile = z.strictObject({
  permissions: z.array(Name).max(PERMISSIONS.length * 2),
  organizations: z.array(Name).min(1).max(1000).optional(),
  description: z.string().max(500).optional(),
});
const GrantFile = z.union([
  z.strictObject({ group: Name, role: Name }),
  z.strictObject({ email: z.string().min(3).max(320), role: Name }),
  z.strictObject({ token: z.literal(true), role: Name }),
]);
const PolicyFile = z.strictObject({
  roles: z.record(Name, RoleFile).optional(),
  grants: z.array(GrantFile).max(MAX_GRANTS),
});

export const BUILT_IN_ROLES = ['admin', 'viewer'] as const;

export interface Role {
  name: string;
  permissions: ReadonlySet<Permission>;
  /** null: every organization. */
  organizations: ReadonlySet<string> | null;
}

export type Grant = ({ group: string } | { email: string } | { token: true }) & { role: string };

export interface Policy {
  /** Where it came from (the file's path), or null for the built-in "no policy" one. */
  source: string | null;
  roles: ReadonlyMap<string, Role>;
  grants: readonly Grant[];
}

/** One role given to one person, and the grant that gave it (shown in the activity record). */
export interface RoleGrant {
  role: string;
  grant: string;
}

export class PolicyError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

const builtIns = (): Map<string, Role> =>
  new Map<string, Role>([
    ['admin', { name: 'admin', permissions: new Set(PERMISSIONS), organizations: null }],
    ['viewer', { name: 'viewer', permissions: new Set(READ_PERMISSIONS), organizations: null }],
  ]);

/** Without CONSOLE_POLICY_FILE: today's behaviour (whoever signs in with a link or the token is admin). */
export function noPolicy(): Policy {
  return { source: null, roles: builtIns(), grants: [{ token: true, role: 'admin' }] };
}

/** The policy in `text` (JSON), or the problems with it, each one line naming what is wrong. */
export function parsePolicy(text: string, source: string): Policy {
  const label = `CONSOLE_POLICY_FILE=${source}`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new PolicyError([`${label} is not valid JSON: ${err instanceof Error ? err.message : 'unreadable'}`]);
  }
  const parsed = PolicyFile.safeParse(json);
  if (!parsed.success) {
    throw new PolicyError(
      parsed.error.issues
        .slice(0, 20)
        .map((i) => `${label}: ${i.path.length ? i.path.join('.') : 'the file'}: ${i.message}`),
    );
  }
  const problems: string[] = [];
  const roles = builtIns();
  const fileRoles = Object.entries(parsed.data.roles ?? {});
  if (fileRoles.length > MAX_ROLES) problems.push(`${label}: at most ${MAX_ROLES} roles`);
  for (const [name, role] of fileRoles) {
    if ((BUILT_IN_ROLES as readonly string[]).includes(name)) {
      problems.push(`${label}: role "${name}" is built in and cannot be redefined (use another name)`);
      continue;
    }
    const unknown = role.permissions.filter((p) => !isPermission(p));
    for (const p of unknown) {
      problems.push(
        `${label}: role "${name}" names unknown permission "${p}" (the API's permission names are listed in the README's "Single sign-on and console roles")`,
      );
    }
    roles.set(name, {
      name,
      permissions: new Set(role.permissions.filter(isPermission)),
      organizations: role.organizations ? new Set(role.organizations) : null,
    });
  }
  parsed.data.grants.forEach((grant, i) => {
    if (!roles.has(grant.role)) {
      problems.push(
        `${label}: grant ${i + 1} gives unknown role "${grant.role}" (known: ${[...roles.keys()].join(', ')})`,
      );
    }
  });
  if (problems.length) throw new PolicyError(problems);
  return { source, roles, grants: parsed.data.grants };
}

/** Reads and checks the policy file. */
export function loadPolicyFile(path: string): Policy {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new PolicyError([`CONSOLE_POLICY_FILE=${path} does not exist or cannot be read`]);
  }
  if (size > MAX_POLICY_BYTES) {
    throw new PolicyError([`CONSOLE_POLICY_FILE=${path} is larger than ${MAX_POLICY_BYTES} bytes`]);
  }
  return parsePolicy(readFileSync(path, 'utf8'), path);
}

/** Who is asking, as the policy looks at them. */
export interface Subject {
  /** `oidc`: a person from the identity provider; `token`: the access token or a one-time link. */
  via: 'oidc' | 'token';
  email?: string | null;
  groups?: readonly string[];
}

export const grantLabel = (g: Grant): string =>
  'group' in g ? `group ${g.group} → ${g.role}` : 'email' in g ? `email ${g.email} → ${g.role}` : `token → ${g.role}`;

/** Every role the policy gives `who` (grants add up), each with the grant that gave it; empty: no grant. */
export function rolesFor(policy: Policy, who: Subject): RoleGrant[] {
  const out: RoleGrant[] = [];
  const email = who.email?.toLowerCase();
  const groups = new Set(who.groups ?? []);
  for (const g of policy.grants) {
    const applies =
      'token' in g
        ? who.via === 'token'
        : 'group' in g
          ? who.via === 'oidc' && groups.has(g.group)
          : who.via === 'oidc' && !!email && g.email.toLowerCase() === email;
    if (applies && !out.some((r) => r.role === g.role)) out.push({ role: g.role, grant: grantLabel(g) });
  }
  return out;
}

/** What the roles allow: per permission, `'*'` (every organization) or the organizations named. */
export type PermissionScope = Partial<Record<Permission, '*' | string[]>>;

export function scopeOf(policy: Policy, roles: readonly RoleGrant[]): PermissionScope {
  const scope: Record<string, '*' | Set<string>> = {};
  for (const { role: name } of roles) {
    const role = policy.roles.get(name);
    // A role removed by a reload gives nothing any more.
    if (!role) continue;
    for (const p of role.permissions) {
      const had = scope[p];
      if (had === '*') continue;
      if (!role.organizations) scope[p] = '*';
      else scope[p] = new Set([...(had ?? []), ...role.organizations]);
    }
  }
  return Object.fromEntries(Object.entries(scope).map(([p, s]) => [p, s === '*' ? '*' : [...s].sort()]));
}

/**
 * The grant that allows `permission` in `org` (null: an enterprise-wide operation), or undefined. A role
 * limited to organizations never allows an enterprise-wide operation.
 */
export function allowingGrant(
  policy: Policy,
  roles: readonly RoleGrant[],
  permission: Permission,
  org: string | null,
): RoleGrant | undefined {
  return roles.find((r) => {
    const role = policy.roles.get(r.role);
    if (!role || !role.permissions.has(permission)) return false;
    return role.organizations === null || (org !== null && role.organizations.has(org));
  });
}

/** True when the roles hold every permission everywhere (what a path the contract does not know needs). */
export function isAdmin(policy: Policy, roles: readonly RoleGrant[]): RoleGrant | undefined {
  return roles.find((r) => {
    const role = policy.roles.get(r.role);
    return !!role && role.organizations === null && PERMISSIONS.every((p) => role.permissions.has(p));
  });
}
