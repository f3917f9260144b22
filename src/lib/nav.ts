/**
 * The console's navigation: the areas of the API it covers, enterprise-wide and per organization, as typed
 * route options (a route that does not exist fails the type check; a unit test checks them too).
 */
import { linkOptions } from '@tanstack/react-router';

export const ENTERPRISE_NAV = [
  { label: 'Organizations', exact: true, ...linkOptions({ to: '/' }) },
  { label: 'All sessions', exact: false, ...linkOptions({ to: '/sessions' }) },
  { label: 'Knowledge notes', exact: false, ...linkOptions({ to: '/knowledge' }) },
  { label: 'Git connections', exact: false, ...linkOptions({ to: '/git-connections' }) },
  { label: 'Audit logs', exact: false, ...linkOptions({ to: '/audit-logs' }) },
  { label: 'Members', exact: false, ...linkOptions({ to: '/members' }) },
  { label: 'Roles', exact: false, ...linkOptions({ to: '/roles' }) },
  { label: 'Service users', exact: false, ...linkOptions({ to: '/service-users' }) },
  { label: 'IdP groups', exact: false, ...linkOptions({ to: '/idp-groups' }) },
  { label: 'Effective access', exact: false, ...linkOptions({ to: '/access' }) },
];

/** The areas of one organization, linked to it. */
export function organizationNav(orgId: string) {
  const params = { orgId };
  return [
    { label: 'Overview', exact: true, ...linkOptions({ to: '/orgs/$orgId', params }) },
    { label: 'Sessions', exact: false, ...linkOptions({ to: '/orgs/$orgId/sessions', params }) },
    { label: 'Git permissions', exact: false, ...linkOptions({ to: '/orgs/$orgId/git-permissions', params }) },
    { label: 'Knowledge notes', exact: false, ...linkOptions({ to: '/orgs/$orgId/knowledge', params }) },
    { label: 'Repository indexing', exact: false, ...linkOptions({ to: '/orgs/$orgId/indexing', params }) },
    { label: 'Snapshot builds', exact: false, ...linkOptions({ to: '/orgs/$orgId/snapshot-builds', params }) },
    { label: 'Members', exact: false, ...linkOptions({ to: '/orgs/$orgId/members', params }) },
    { label: 'Service users', exact: false, ...linkOptions({ to: '/orgs/$orgId/service-users', params }) },
  ];
}

export type NavItem = (typeof ENTERPRISE_NAV)[number] | ReturnType<typeof organizationNav>[number];
