/**
 * The members area's query keys, in a module of their own: a member's page reads them from its URL search,
 * which the route tree loads with the first screen, and the rest of ./api.ts is not first-screen code.
 */

/** Where a list lives: the enterprise, or one organization. */
export type MembersScope = { kind: 'enterprise' } | { kind: 'org'; orgId: string };

const scopeKey = (scope: MembersScope) => (scope.kind === 'enterprise' ? 'enterprise' : `org:${scope.orgId}`);

export const roleKeys = {
  all: ['roles'] as const,
  lists: () => [...roleKeys.all, 'list'] as const,
};

export const memberKeys = {
  all: ['members'] as const,
  lists: () => [...memberKeys.all, 'list'] as const,
  list: (scope: MembersScope, email: string | undefined) =>
    [...memberKeys.lists(), scopeKey(scope), { email }] as const,
  idpUsers: (orgId: string, email: string | undefined) =>
    [...memberKeys.lists(), `org:${orgId}`, 'idp-users', { email }] as const,
  /** Every user of the enterprise at once (effective access). */
  everyone: () => [...memberKeys.all, 'everyone'] as const,
};

export const serviceUserKeys = {
  all: ['service-users'] as const,
  lists: () => [...serviceUserKeys.all, 'list'] as const,
  list: (scope: MembersScope, includeInactive: boolean) =>
    [...serviceUserKeys.lists(), scopeKey(scope), { includeInactive }] as const,
  /** Every active service user of the enterprise at once (effective access). */
  everyone: () => [...serviceUserKeys.all, 'everyone'] as const,
};

export const idpGroupKeys = {
  all: ['idp-groups'] as const,
  lists: () => [...idpGroupKeys.all, 'list'] as const,
  /** The groups' enterprise roles (`idpGroups.roles.list`). */
  enterpriseRoles: () => [...idpGroupKeys.all, 'roles', 'enterprise'] as const,
  /** The groups' roles in one organization (`idpGroups.organization.roles.list`). */
  orgRoles: (orgId: string) => [...idpGroupKeys.all, 'roles', `org:${orgId}`] as const,
};
