/**
 * The console's navigation: the areas of the API it covers, enterprise-wide and per organization, as typed
 * route options (a route that does not exist fails the type check; a unit test checks them too). Each names
 * the permission its screen's first read needs (a unit test checks it against the contract's operation), so
 * the sidebar can mark the areas the console's credential cannot open.
 */
import { linkOptions } from '@tanstack/react-router';
import { ANY_CREDENTIAL, type Permission, type RequiredPermission } from '@/api/permissions';

export const ENTERPRISE_NAV = [
  {
    label: 'Organizations',
    permission: 'ViewAccountOrganizations' as Permission,
    operation: 'organizations.list',
    exact: true,
    ...linkOptions({ to: '/' }),
  },
  {
    label: 'All sessions',
    permission: 'ViewAccountSessions' as Permission,
    operation: 'sessions.enterprise.list',
    exact: false,
    ...linkOptions({ to: '/sessions' }),
  },
  {
    label: 'Knowledge notes',
    permission: 'ManageAccountKnowledge' as Permission,
    operation: 'knowledge.enterprise.list',
    exact: false,
    ...linkOptions({ to: '/knowledge' }),
  },
  {
    label: 'Playbooks',
    permission: 'ManageAccountPlaybooks' as Permission,
    operation: 'playbooks.enterprise.list',
    exact: false,
    ...linkOptions({ to: '/playbooks' }),
  },
  {
    label: 'Git connections',
    permission: 'ManageGitIntegrations' as Permission,
    operation: 'gitConnections.list',
    exact: false,
    ...linkOptions({ to: '/git-connections' }),
  },
  {
    label: 'Audit logs',
    permission: 'ViewAccountAuditLogs' as Permission,
    operation: 'auditLogs.list',
    exact: false,
    ...linkOptions({ to: '/audit-logs' }),
  },
  {
    // The console's own record of who changed what through it (its read needs what the audit log's does).
    label: 'Console activity',
    permission: 'ViewAccountAuditLogs' as Permission,
    operation: 'auditLogs.list',
    exact: false,
    ...linkOptions({ to: '/activity' }),
  },
  {
    label: 'Guardrail violations',
    permission: 'ManageEnterpriseSettings' as Permission,
    operation: 'guardrails.violations.list',
    exact: false,
    ...linkOptions({ to: '/guardrails' }),
  },
  {
    label: 'Code-scan findings',
    permission: 'ViewAccountCodeScans' as Permission,
    operation: 'codeScans.findings.list',
    exact: false,
    ...linkOptions({ to: '/code-scans' }),
  },
  {
    label: 'Usage',
    permission: 'ManageBilling' as Permission,
    operation: 'consumption.daily.get',
    exact: false,
    ...linkOptions({ to: '/usage' }),
  },
  {
    label: 'Capacity',
    permission: 'ViewAccountMetrics' as Permission,
    operation: 'hypervisors.list',
    exact: false,
    ...linkOptions({ to: '/capacity' }),
  },
  {
    label: 'Searches',
    permission: 'ViewAccountSessions' as Permission,
    operation: 'searches.enterprise.list',
    exact: false,
    ...linkOptions({ to: '/searches' }),
  },
  {
    label: 'Members',
    permission: 'ViewAccountMembership' as Permission,
    operation: 'members.users.list',
    exact: false,
    ...linkOptions({ to: '/members' }),
  },
  {
    label: 'Roles',
    permission: 'ViewAccountMembership' as Permission,
    operation: 'roles.list',
    exact: false,
    ...linkOptions({ to: '/roles' }),
  },
  {
    label: 'Service users',
    permission: 'ManageAccountServiceUsers' as Permission,
    operation: 'serviceUsers.list',
    exact: false,
    ...linkOptions({ to: '/service-users' }),
  },
  {
    label: 'IdP groups',
    permission: 'ManageAccountMembership' as Permission,
    operation: 'idpGroups.list',
    exact: false,
    ...linkOptions({ to: '/idp-groups' }),
  },
  {
    label: 'Effective access',
    permission: 'ViewAccountMembership' as Permission,
    operation: 'members.users.list',
    exact: false,
    ...linkOptions({ to: '/access' }),
  },
  {
    label: 'Stale access',
    permission: 'ViewAccountMembership' as Permission,
    operation: 'members.users.list',
    exact: false,
    ...linkOptions({ to: '/access-review' }),
  },
  {
    label: 'IP access list',
    permission: 'ManageEnterpriseSettings' as Permission,
    operation: 'ipAccessList.get',
    exact: false,
    ...linkOptions({ to: '/settings/ip-access-list' }),
  },
  {
    label: 'Limits',
    permission: 'ManageBilling' as Permission,
    operation: 'acuLimits.list',
    exact: false,
    ...linkOptions({ to: '/settings/limits' }),
  },
  {
    label: 'Configuration',
    permission: 'ViewAccountOrganizations' as Permission,
    operation: 'organizations.list',
    exact: false,
    ...linkOptions({ to: '/settings/configuration' }),
  },
  {
    // Alerts are the console's own: any credential the API accepts can be watched with.
    label: 'Alerts',
    permission: ANY_CREDENTIAL as RequiredPermission,
    operation: 'self.get',
    exact: false,
    ...linkOptions({ to: '/alerts' }),
  },
  {
    // The doctor needs no permission of its own: any credential the API accepts (`GET /v3/self`) can be checked.
    label: 'Doctor',
    permission: ANY_CREDENTIAL as RequiredPermission,
    operation: 'self.get',
    exact: false,
    ...linkOptions({ to: '/doctor' }),
  },
];

/** The areas of one organization, linked to it. */
export function organizationNav(orgId: string) {
  const params = { orgId };
  return [
    {
      label: 'Overview',
      permission: 'ViewAccountOrganizations' as Permission,
      operation: 'organizations.get',
      exact: true,
      ...linkOptions({ to: '/orgs/$orgId', params }),
    },
    {
      label: 'Sessions',
      permission: 'ViewOrgSessions' as Permission,
      operation: 'sessions.list',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/sessions', params }),
    },
    {
      label: 'Guardrail violations',
      permission: 'ManageEnterpriseSettings' as Permission,
      operation: 'guardrails.violations.organization.list',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/guardrails', params }),
    },
    {
      label: 'Usage',
      permission: 'ManageBilling' as Permission,
      operation: 'consumption.daily.organization.get',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/usage', params }),
    },
    {
      label: 'Searches',
      permission: 'ViewOrgSessions' as Permission,
      operation: 'searches.list',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/searches', params }),
    },
    {
      label: 'Git permissions',
      permission: 'ManageGitIntegrations' as Permission,
      operation: 'gitPermissions.list',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/git-permissions', params }),
    },
    {
      label: 'Knowledge notes',
      permission: 'ManageAccountKnowledge' as Permission,
      operation: 'knowledge.list',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/knowledge', params }),
    },
    {
      label: 'Playbooks',
      permission: 'ManageAccountPlaybooks' as Permission,
      operation: 'playbooks.list',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/playbooks', params }),
    },
    {
      label: 'Schedules',
      permission: 'ManageOrgSchedules' as Permission,
      operation: 'schedules.list',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/schedules', params }),
    },
    {
      label: 'Secrets',
      permission: 'ManageOrgSecrets' as Permission,
      operation: 'secrets.list',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/secrets', params }),
    },
    {
      label: 'Repository indexing',
      permission: 'IndexOrgRepositories' as Permission,
      operation: 'indexing.list',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/indexing', params }),
    },
    {
      label: 'Snapshot builds',
      permission: 'ManageRepoBlueprints' as Permission,
      operation: 'snapshotBuilds.list',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/snapshot-builds', params }),
    },
    {
      label: 'Members',
      permission: 'ViewOrgMembership' as Permission,
      operation: 'members.organization.users.list',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/members', params }),
    },
    {
      label: 'Service users',
      permission: 'ManageOrgServiceUsers' as Permission,
      operation: 'serviceUsers.organization.list',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/service-users', params }),
    },
    {
      label: 'Session tags',
      permission: 'ManageOrganizations' as Permission,
      operation: 'organizations.tags.get',
      exact: false,
      ...linkOptions({ to: '/orgs/$orgId/settings/tags', params }),
    },
  ];
}

export type NavItem = (typeof ENTERPRISE_NAV)[number] | ReturnType<typeof organizationNav>[number];
