/**
 * Permission names. The spec's own names first; the names it leaves "not shown" are chosen here in the
 * spec's pattern (View…/Manage…/Use…, "Account" = enterprise level, "Org" = organization level).
 */
export const SPEC_PERMISSIONS = [
  'ManageEnterpriseSettings',
  'ManageGitIntegrations',
  'ViewOrgMembership',
  'ManageOrgSessions',
  'ManageOrgSchedules',
  'ManageOrgSecrets',
  'UseAgentSessions',
  'ViewOrgSessions',
  'ViewAccountMetrics',
  'ViewOrgMetrics',
  'ManageBilling',
  'ManageOrganizations',
  'ManageAccountServiceUsers',
  'ManageOrgServiceUsers',
  'ManageAccountMembership',
  'ManageAccountKnowledge',
  'ManageAccountPlaybooks',
  'IndexOrgRepositories',
  'ManageRepoBlueprints',
  'UseAccountCodeScans',
] as const;

/** Chosen by this console where the spec does not name a permission (documented in each operation). */
export const CHOSEN_PERMISSIONS = [
  /** Read the enterprise's organizations. */
  'ViewAccountOrganizations',
  /** Read sessions across organizations (enterprise sessions list/get/messages). */
  'ViewAccountSessions',
  /** Act on sessions across organizations (enterprise message, insights). */
  'ManageAccountSessions',
  /** Read the enterprise audit log. */
  'ViewAccountAuditLogs',
  /** Read an organization's audit log. */
  'ViewOrgAuditLogs',
  /** Read the enterprise's members: users, IdP-derived users and roles (the spec shows no permission for them). */
  'ViewAccountMembership',
  /** Read the enterprise's code scans and their findings (the spec names only UseAccountCodeScans, to remediate). */
  'ViewAccountCodeScans',
] as const;

export const PERMISSIONS = [...SPEC_PERMISSIONS, ...CHOSEN_PERMISSIONS] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Read-only permissions: what a viewer role holds. */
export const READ_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((p) => p.startsWith('View'));

const PERMISSION_SET: ReadonlySet<string> = new Set(PERMISSIONS);

/** True for a permission name this contract knows (role data may carry others). */
export function isPermission(name: string): name is Permission {
  return PERMISSION_SET.has(name);
}

/**
 * The service-user-management permissions (spec, Authentication 5: "the ManageServiceUsers permissions can
 * never be granted"): a role holding either one cannot be given to a service user through the API.
 */
export const SERVICE_USER_MANAGEMENT_PERMISSIONS = ['ManageAccountServiceUsers', 'ManageOrgServiceUsers'] as const;

/**
 * A pseudo-permission for operations any valid credential may call (e.g. `GET /v3/self`).
 */
export const ANY_CREDENTIAL = 'AnyCredential' as const;
export type RequiredPermission = Permission | typeof ANY_CREDENTIAL;
