/** CSV exports of the members lists (the filtered list as shown, every page of it). */
import type { IdpRoleAssignment, IdpUser, RoleAssignment, User } from '@/api/operations/members';
import { toCsv } from '@/lib/csv';
import { formatUtc } from '@/lib/format';

type OrgName = (orgId: string) => string;

const describe = (a: RoleAssignment | IdpRoleAssignment, orgName: OrgName) => {
  const level = a.org_id ? `${orgName(a.org_id)} (${a.org_id})` : 'enterprise';
  const via = 'idp_group_name' in a && typeof a.idp_group_name === 'string' ? ` via ${a.idp_group_name}` : '';
  return `${a.role.role_name} @ ${level}${via}`;
};

export const MEMBERS_CSV_HEADER = [
  'user_id',
  'email',
  'name',
  'enterprise_role',
  'organization_roles',
  'idp_groups',
  'idp_roles',
  'joined_at',
] as const;

export function membersCsv(users: readonly User[], orgName: OrgName): string {
  return toCsv(
    MEMBERS_CSV_HEADER,
    users.map((u) => [
      u.user_id,
      u.email ?? '',
      u.name ?? '',
      u.role_assignments
        .filter((a) => !a.org_id)
        .map((a) => a.role.role_name)
        .join('; '),
      u.role_assignments
        .filter((a) => a.org_id)
        .map((a) => describe(a, orgName))
        .join('; '),
      (u.idp_group_names ?? []).join('; '),
      (u.idp_role_assignments ?? []).map((a) => describe(a, orgName)).join('; '),
      u.created_at === undefined ? '' : formatUtc(u.created_at),
    ]),
  );
}

export function idpUsersCsv(users: readonly IdpUser[], orgName: OrgName): string {
  return toCsv(
    ['user_id', 'email', 'name', 'idp_roles'],
    users.map((u) => [
      u.user_id,
      u.email ?? '',
      u.name ?? '',
      u.idp_role_assignments.map((a) => describe(a, orgName)).join('; '),
    ]),
  );
}

/** `members-2026-05-01T10-00-00Z.csv` */
export function csvFileName(what: string, atMs = Date.now()): string {
  return `${what}-${formatUtc(Math.floor(atMs / 1000)).replace(/:/g, '-')}.csv`;
}
