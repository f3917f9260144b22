/**
 * The console's policy enforced on every `/api` and `/console` request, before it is forwarded or answered:
 * the operation (from the contract), its permission and its organization, against the roles of the person
 * (or script) the request comes from. A refusal is a 403 problem of its own type, told apart from the API's.
 */
import type { Permission } from '../../api/permissions';
import type { Principal } from '../console/actor';
import { operationOf, organizationInBody, type MatchedOperation } from './operations';
import { allowingGrant, isAdmin, type Policy, type RoleGrant } from './policy';

export { POLICY_REFUSED_TYPE } from '../../api/problem';

export type Decision =
  | { allowed: true; op: MatchedOperation | undefined; grant: RoleGrant | null }
  | {
      allowed: false;
      op: MatchedOperation | undefined;
      permission: Permission | 'admin';
      org: string | null;
      detail: string;
    };

const rolesText = (roles: readonly RoleGrant[]) => (roles.length ? roles.map((r) => r.role).join(', ') : 'no role');

/**
 * What the policy says of `op` (the operation `method pathname` is, from `operationOf`) for `who`. `body`: the
 * request's JSON body, read when the operation names its organization there (`op.orgInBody`).
 */
export function decideOperation(
  policy: Policy,
  who: Principal,
  method: string,
  pathname: string,
  found: MatchedOperation | undefined,
  body?: unknown,
): Decision {
  const isApi = pathname === '/api' || pathname.startsWith('/api/');
  const op = found?.orgInBody && !found.org ? { ...found, org: organizationInBody(body, found.orgInBody) } : found;
  const refuse = (permission: Permission | 'admin', org: string | null, detail: string): Decision => ({
    allowed: false,
    op,
    permission,
    org,
    detail,
  });
  if (!op) {
    if (!isApi) return { allowed: true, op, grant: null };
    const admin = isAdmin(policy, who.roles);
    if (admin) return { allowed: true, op, grant: admin };
    return refuse(
      'admin',
      null,
      `The console's policy refused ${method} ${pathname}: the API contract does not know this path, so only the admin role may call it (your console roles: ${rolesText(who.roles)}).`,
    );
  }
  if (op.permission === 'admin') {
    const admin = isAdmin(policy, who.roles);
    if (admin) return { allowed: true, op, grant: admin };
    return refuse(
      'admin',
      op.org,
      `The console's policy refused ${op.id}: only the admin role may make this change (your console roles: ${rolesText(who.roles)}).`,
    );
  }
  if (op.permission === null) {
    // Any role will do; somebody without any role was refused at sign-in already.
    const first = who.roles[0];
    if (first) return { allowed: true, op, grant: first };
    return refuse('admin', op.org, `The console's policy refused ${op.id}: you hold no console role.`);
  }
  const grant = allowingGrant(policy, who.roles, op.permission, op.org);
  if (grant) return { allowed: true, op, grant };
  const where = op.org ? `in organization ${op.org}` : 'across the enterprise';
  return refuse(
    op.permission,
    op.org,
    `The console's policy refused ${op.id}: your console role does not allow ${op.permission} ${where} (your console roles: ${rolesText(who.roles)}). The API was not called.`,
  );
}

/** What the policy says of `method pathname` (the path without its query) for `who`, the body unread. */
export function decide(policy: Policy, who: Principal, method: string, pathname: string, body?: unknown): Decision {
  return decideOperation(policy, who, method, pathname, operationOf(method, pathname), body);
}
