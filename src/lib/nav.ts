/**
 * The console's navigation: the areas of the API it covers, enterprise-wide and per organization, as typed
 * route options (a route that does not exist fails the type check; a unit test checks them too). The screens
 * themselves — label, route, the operation its first read calls and the permission that needs — are listed once,
 * in the contract (`src/api/console/screens.ts`, which the doctor reads too), so the sidebar can mark the areas
 * the console's credential or the person's console roles cannot open.
 */
import { linkOptions } from '@tanstack/react-router';
import { ENTERPRISE_SCREENS, ORGANIZATION_SCREENS } from '@/api/console/screens';

/** The screens that match their route exactly (the others stay marked on the pages below them). */
const EXACT = new Set<string>(['/', '/orgs/$orgId']);

export const ENTERPRISE_NAV = ENTERPRISE_SCREENS.map(({ label, permission, operation, to }) => ({
  label,
  permission,
  operation,
  exact: EXACT.has(to),
  ...linkOptions({ to }),
}));

/** The areas of one organization, linked to it. */
export function organizationNav(orgId: string) {
  const params = { orgId };
  return ORGANIZATION_SCREENS.map(({ label, permission, operation, to }) => ({
    label,
    permission,
    operation,
    exact: EXACT.has(to),
    ...linkOptions({ to, params }),
  }));
}

export type NavItem = (typeof ENTERPRISE_NAV)[number] | ReturnType<typeof organizationNav>[number];
