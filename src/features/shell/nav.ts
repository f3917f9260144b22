/**
 * The console's navigation: the areas of the API it covers, enterprise-wide and per organization.
 * Each entry must point at a route that exists (checked by a unit test).
 */
export interface NavItem {
  label: string;
  /** A route path; `$orgId` is filled with the selected organization. */
  to: string;
}

export const ENTERPRISE_NAV: readonly NavItem[] = [{ label: 'Organizations', to: '/' }];

export const ORGANIZATION_NAV: readonly NavItem[] = [{ label: 'Overview', to: '/orgs/$orgId' }];
