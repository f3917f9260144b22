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
  ];
}

export type NavItem = (typeof ENTERPRISE_NAV)[number] | ReturnType<typeof organizationNav>[number];
