/**
 * The policy's check of a role grant. Creating a service user, inviting members, giving a member, an IdP group
 * or a service user a role: the operation's own permission (`ManageAccountServiceUsers`, …) says the person may
 * grant roles, not which. Without this check a person could grant a role holding more than their console roles
 * allow — an Enterprise Admin service user whose credential then works outside the console's policy. So every
 * permission the granted role carries must be one the person's console roles allow at the role's level: an
 * enterprise role across the enterprise (a role limited to organizations never covers it), an organization
 * role in that organization. The role's permissions come from the API's role list; a role that cannot be
 * checked is refused (deny by default).
 */
import { isPermission } from '../../api/permissions';
import type { Principal } from '../console/actor';
import type { PeekedBody } from './body';
import type { MatchedOperation } from './operations';
import { allowingGrant, isAdmin, type Policy } from './policy';
import { RoleCatalogUnavailable, type CatalogRole, type RoleCatalog } from './role-catalog';

/** At most this many role ids are looked up in one body (the contract's bodies name one or two). */
const MAX_ROLE_IDS = 5;

export type GrantVerdict =
  | { allowed: true }
  | {
      allowed: false;
      /** 403: the policy refuses it; 503: the roles could not be read, so it could not be checked. */
      status: 403 | 503;
      permission: string;
      org: string | null;
      detail: string;
      /** The granted role's permissions the person's console roles do not allow at its level. */
      missing: string[];
    };

/** The role ids a body names in the operation's role fields (string values only: others grant nothing). */
export function roleIdsIn(body: unknown, fields: readonly string[]): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  const ids = fields.map((f) => (body as Record<string, unknown>)[f]).filter((v) => typeof v === 'string');
  return [...new Set(ids)];
}

const rolesText = (who: Principal) => (who.roles.length ? who.roles.map((r) => r.role).join(', ') : 'no role');
const roleLabel = (r: CatalogRole) => `${r.name} (${r.id})`;

/** The permissions of `role` the person's roles do not allow where the role would hold them. */
export function missingForGrant(policy: Policy, who: Principal, role: CatalogRole, org: string | null): string[] {
  return [...new Set(role.permissions ?? [])].filter(
    (p) => !isPermission(p) || !allowingGrant(policy, who.roles, p, org),
  );
}

/**
 * Whether `who` may make the role grant `op` (already allowed by its own permission) with this `body`. The admin
 * role passes without reading the roles.
 */
export async function checkRoleGrant(
  policy: Policy,
  who: Principal,
  op: MatchedOperation,
  body: PeekedBody,
  catalog: RoleCatalog | undefined,
  signal?: AbortSignal,
): Promise<GrantVerdict> {
  if (!op.roleFields || isAdmin(policy, who.roles)) return { allowed: true };
  const refuse = (
    status: 403 | 503,
    permission: string,
    org: string | null,
    why: string,
    missing: string[] = [],
  ): GrantVerdict => ({
    allowed: false,
    status,
    permission,
    org,
    missing,
    detail: `The console's policy refused ${op.id}: ${why} (your console roles: ${rolesText(who)}). The API was not called.`,
  });
  const opPermission = typeof op.permission === 'string' ? op.permission : 'admin';
  if (body.kind === 'unreadable') {
    return refuse(
      403,
      'admin',
      op.org,
      'the role it grants could not be checked, because the request body could not be read as JSON of at most 1 MiB',
    );
  }
  const ids = body.kind === 'json' ? roleIdsIn(body.value, op.roleFields) : [];
  if (ids.length > MAX_ROLE_IDS) return refuse(403, 'admin', op.org, 'the request names too many roles to check');
  for (const id of ids) {
    let role: CatalogRole | null;
    try {
      if (!catalog) throw new RoleCatalogUnavailable('the console was started without a way to read them');
      role = await catalog.find(id, signal);
    } catch (err) {
      const why = err instanceof RoleCatalogUnavailable ? err.message : 'they could not be read';
      return refuse(
        503,
        opPermission,
        op.org,
        `the roles could not be checked, so a role cannot be granted now (${why}); try again in a moment`,
      );
    }
    if (!role) {
      return refuse(
        403,
        'admin',
        op.org,
        `the role ${id} is not among the API's roles, so what it grants cannot be checked`,
      );
    }
    // An enterprise role holds everywhere; an organization role only in the organization it is granted in.
    const org = role.type === 'org' ? op.org : null;
    if (role.permissions === null) {
      return refuse(
        403,
        'admin',
        org,
        `the API does not publish the permissions of the role ${roleLabel(role)}, so only the admin role may grant it`,
      );
    }
    const missing = missingForGrant(policy, who, role, org);
    if (missing.length) {
      const where = org ? `in organization ${org}` : 'across the enterprise';
      return refuse(
        403,
        missing[0]!,
        org,
        `the role ${roleLabel(role)} carries ${missing.join(', ')}, which your console roles do not allow ${where}`,
        missing,
      );
    }
  }
  return { allowed: true };
}
