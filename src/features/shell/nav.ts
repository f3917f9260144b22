/**
 * The console's navigation: the areas of the API it covers, enterprise-wide and per organization.
 * Each entry must point at a route that exists (checked by a unit test).
 */
export interface NavItem {
  label: string;
  /** A route path; `$orgId` is filled with the selected organization. */
  to: string;
}

export const ENTERPRISE_NAV: readonly NavItem[] = [
  { label: 'Organizations', to: '/' },
  { label: 'All sessions', to: '/sessions' },
  { label: 'Knowledge notes', to: '/knowledge' },
  { label: 'Audit logs', to: '/audit-logs' },
];

export const ORGANIZATION_NAV: readonly NavItem[] = [
  { label: 'Overview', to: '/orgs/$orgId' },
  { label: 'Sessions', to: '/orgs/$orgId/sessions' },
  { label: 'Git permissions', to: '/orgs/$orgId/git-permissions' },
  { label: 'Knowledge notes', to: '/orgs/$orgId/knowledge' },
  { label: 'Repository indexing', to: '/orgs/$orgId/indexing' },
  { label: 'Snapshot builds', to: '/orgs/$orgId/snapshot-builds' },
];
