/**
 * The console's screens, once: every entry of the navigation with its route, the operation its first read calls
 * and the permission that needs. The sidebar and the command palette (src/lib/nav.ts) link them, and the doctor
 * (`CONSOLE_SCREENS`) marks which of them will work; kept here, free of the browser's router and of the `@/`
 * alias, so the doctor's engine and `npm run doctor` read it too. A unit test checks each route exists and each
 * permission is its operation's in the contract.
 */
import type { Permission, RequiredPermission } from '../permissions';

/** One screen: its label, route, the operation its first read calls and the permission that needs. */
export interface ScreenEntry<To extends string = string> {
  readonly label: string;
  readonly to: To;
  readonly permission: RequiredPermission;
  readonly operation: string;
}

const screen = <const To extends string>(
  label: string,
  to: To,
  permission: Permission | 'AnyCredential',
  operation: string,
): ScreenEntry<To> => ({ label, to, permission, operation });

/** The enterprise's screens, in the navigation's order. */
export const ENTERPRISE_SCREENS = [
  screen('Organizations', '/', 'ViewAccountOrganizations', 'organizations.list'),
  screen('All sessions', '/sessions', 'ViewAccountSessions', 'sessions.enterprise.list'),
  screen('Knowledge notes', '/knowledge', 'ManageAccountKnowledge', 'knowledge.enterprise.list'),
  screen('Playbooks', '/playbooks', 'ManageAccountPlaybooks', 'playbooks.enterprise.list'),
  screen('Git connections', '/git-connections', 'ManageGitIntegrations', 'gitConnections.list'),
  screen('Audit logs', '/audit-logs', 'ViewAccountAuditLogs', 'auditLogs.list'),
  // The console's own record of who changed what through it (its read needs what the audit log's does).
  screen('Console activity', '/activity', 'ViewAccountAuditLogs', 'auditLogs.list'),
  screen('Guardrail violations', '/guardrails', 'ManageEnterpriseSettings', 'guardrails.violations.list'),
  screen('Code-scan findings', '/code-scans', 'ViewAccountCodeScans', 'codeScans.findings.list'),
  screen('Usage', '/usage', 'ManageBilling', 'consumption.daily.get'),
  screen('Capacity', '/capacity', 'ViewAccountMetrics', 'hypervisors.list'),
  screen('Searches', '/searches', 'ViewAccountSessions', 'searches.enterprise.list'),
  screen('Members', '/members', 'ViewAccountMembership', 'members.users.list'),
  screen('Roles', '/roles', 'ViewAccountMembership', 'roles.list'),
  screen('Service users', '/service-users', 'ManageAccountServiceUsers', 'serviceUsers.list'),
  screen('IdP groups', '/idp-groups', 'ManageAccountMembership', 'idpGroups.list'),
  screen('Effective access', '/access', 'ViewAccountMembership', 'members.users.list'),
  screen('Stale access', '/access-review', 'ViewAccountMembership', 'members.users.list'),
  screen('IP access list', '/settings/ip-access-list', 'ManageEnterpriseSettings', 'ipAccessList.get'),
  screen('Limits', '/settings/limits', 'ManageBilling', 'acuLimits.list'),
  screen('Configuration', '/settings/configuration', 'ViewAccountOrganizations', 'organizations.list'),
  // Alerts are the console's own: any credential the API accepts can be watched with.
  screen('Alerts', '/alerts', 'AnyCredential', 'self.get'),
  // The doctor needs no permission of its own: any credential the API accepts (`GET /v3/self`) can be checked.
  screen('Doctor', '/doctor', 'AnyCredential', 'self.get'),
] as const;

/** The screens of one organization (`$orgId` in their routes), in the navigation's order. */
export const ORGANIZATION_SCREENS = [
  screen('Overview', '/orgs/$orgId', 'ViewAccountOrganizations', 'organizations.get'),
  screen('Sessions', '/orgs/$orgId/sessions', 'ViewOrgSessions', 'sessions.list'),
  screen(
    'Guardrail violations',
    '/orgs/$orgId/guardrails',
    'ManageEnterpriseSettings',
    'guardrails.violations.organization.list',
  ),
  screen('Usage', '/orgs/$orgId/usage', 'ManageBilling', 'consumption.daily.organization.get'),
  screen('Searches', '/orgs/$orgId/searches', 'ViewOrgSessions', 'searches.list'),
  screen('Git permissions', '/orgs/$orgId/git-permissions', 'ManageGitIntegrations', 'gitPermissions.list'),
  screen('Knowledge notes', '/orgs/$orgId/knowledge', 'ManageAccountKnowledge', 'knowledge.list'),
  screen('Playbooks', '/orgs/$orgId/playbooks', 'ManageAccountPlaybooks', 'playbooks.list'),
  screen('Schedules', '/orgs/$orgId/schedules', 'ManageOrgSchedules', 'schedules.list'),
  screen('Secrets', '/orgs/$orgId/secrets', 'ManageOrgSecrets', 'secrets.list'),
  screen('Repository indexing', '/orgs/$orgId/indexing', 'IndexOrgRepositories', 'indexing.list'),
  screen('Snapshot builds', '/orgs/$orgId/snapshot-builds', 'ManageRepoBlueprints', 'snapshotBuilds.list'),
  screen('Members', '/orgs/$orgId/members', 'ViewOrgMembership', 'members.organization.users.list'),
  screen('Service users', '/orgs/$orgId/service-users', 'ManageOrgServiceUsers', 'serviceUsers.organization.list'),
  screen('Session tags', '/orgs/$orgId/settings/tags', 'ManageOrganizations', 'organizations.tags.get'),
] as const;
