/**
 * Members and access: query keys, query options and mutations of roles, enterprise and organization members,
 * service users and IdP groups. Lists are cursor pages on the data table; the whole sets (roles, every user,
 * every active service user) are read with `readAllPages` where a screen computes over all of them (the
 * roles matrix, effective access). Role changes go through the console's guarded endpoint, which records each
 * one in the settings history with who made it.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { RolePrincipalType } from '@/api/console/settings-history';
import { settingsHistoryKeys } from '@/api/console/settings-history-keys';
import type { IdpRoleAssignment, InviteUsersBody, Role, RoleIdBody } from '@/api/operations/members';
import type { CreateServiceUserBody } from '@/api/operations/service-users';
import type { IdpGroup, RegisterIdpGroupsBody } from '@/api/operations/idp-groups';
import { readAllPages } from '@/api/page-walk';
import { apiCall } from '@/lib/api-client';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

/** Rows per page of the member, service-user and IdP-group lists (the API's maximum). */
export const MEMBERS_PAGE_SIZE = 200;
/**
 * The IdP groups screen reads each group's role in this many organizations at most (one list per organization);
 * beyond them it says which organizations it did not read, and the roles dialog reads one on demand.
 */
export const IDP_ORG_ROLE_READS = 50;
/** Reading a whole set stops here (a list that never ends, or one far larger than any enterprise's). */
const MAX_PAGES = 100;

export { idpGroupKeys, memberKeys, roleKeys, serviceUserKeys, type MembersScope } from './keys';
import { idpGroupKeys, memberKeys, roleKeys, serviceUserKeys, type MembersScope } from './keys';

// ---------------------------------------------------------------- roles

/** Every role with its permissions: a handful, read whole. */
export const rolesQueryOptions = () =>
  queryOptions({
    queryKey: roleKeys.lists(),
    queryFn: ({ signal }) =>
      readAllPages(
        (after, s) => apiCall('roles.list', { query: { first: MEMBERS_PAGE_SIZE, after }, signal: s ?? signal }),
        { maxPages: MAX_PAGES, signal, what: 'The roles list' },
      ),
    staleTime: 5 * 60_000,
  });

// ---------------------------------------------------------------- members

export const membersInfiniteQueryOptions = (scope: MembersScope, email: string | undefined) =>
  cursorInfiniteQueryOptions({
    queryKey: memberKeys.list(scope, email),
    page: (after, signal) => {
      const query = { first: MEMBERS_PAGE_SIZE, after, email };
      return scope.kind === 'enterprise'
        ? apiCall('members.users.list', { query, signal })
        : apiCall('members.organization.users.list', { params: { org_id: scope.orgId }, query, signal });
    },
    staleTime: 30_000,
  });

/** Users whose membership of an organization comes from IdP groups. */
export const orgIdpUsersInfiniteQueryOptions = (orgId: string, email: string | undefined) =>
  cursorInfiniteQueryOptions({
    queryKey: memberKeys.idpUsers(orgId, email),
    page: (after, signal) =>
      apiCall('members.organization.idpUsers.list', {
        params: { org_id: orgId },
        query: { first: MEMBERS_PAGE_SIZE, after, email },
        signal,
      }),
    staleTime: 30_000,
  });

export const everyUserQueryOptions = () =>
  queryOptions({
    queryKey: memberKeys.everyone(),
    queryFn: ({ signal }) =>
      readAllPages(
        (after, s) =>
          apiCall('members.users.list', { query: { first: MEMBERS_PAGE_SIZE, after }, signal: s ?? signal }),
        { maxPages: MAX_PAGES, signal, what: 'The members list' },
      ),
    staleTime: 30_000,
  });

/**
 * Every user with roles through IdP groups, by user id (effective access, where the users' list does not carry
 * `idp_role_assignments`: the vendor's User). Read whole, so a user absent from it inherits nothing.
 */
export const everyIdpUserQueryOptions = () =>
  queryOptions({
    queryKey: [...memberKeys.all, 'everyone', 'idp'] as const,
    queryFn: async ({ signal }): Promise<ReadonlyMap<string, IdpRoleAssignment[]>> => {
      const users = await readAllPages(
        (after, s) =>
          apiCall('members.idpUsers.list', { query: { first: MEMBERS_PAGE_SIZE, after }, signal: s ?? signal }),
        { maxPages: MAX_PAGES, signal, what: 'The IdP users list' },
      );
      return new Map(users.map((u) => [u.user_id, u.idp_role_assignments]));
    },
    staleTime: 30_000,
    retry: false,
  });

function useInvalidateMembers() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: memberKeys.all }),
      qc.invalidateQueries({ queryKey: settingsHistoryKeys.all }),
    ]);
}

/**
 * Gives a member, service user or IdP group `roleId` at a level (`orgId` null: enterprise-wide), changes it,
 * or takes it away (null): the console reads the role held there and assigns, changes or removes it.
 */
export const setRoleAt = (type: RolePrincipalType, id: string, orgId: string | null, roleId: string | null) =>
  apiCall('console.settings.roles.set', {
    body: { principal_type: type, principal_id: id, level: orgId ?? 'enterprise', role_id: roleId },
  });

export function useInviteUsers() {
  const invalidate = useInvalidateMembers();
  return useMutation({
    mutationFn: (body: InviteUsersBody) => apiCall('members.users.create', { body }),
    onSuccess: invalidate,
  });
}

/** Sets a user's enterprise role, or (with `orgId`) its role in that organization (given when it has none). */
export function useSetRole() {
  const invalidate = useInvalidateMembers();
  return useMutation({
    mutationFn: (v: { userId: string; orgId?: string; body: RoleIdBody }) =>
      setRoleAt('user', v.userId, v.orgId ?? null, v.body.role_id),
    onSuccess: invalidate,
  });
}

/** Removes a user from the enterprise, or (with `orgId`) only its role in that organization. */
export function useRemoveMember() {
  const invalidate = useInvalidateMembers();
  return useMutation({
    mutationFn: async (v: { userId: string; orgId?: string }): Promise<void> => {
      if (v.orgId === undefined) await apiCall('members.users.delete', { params: { user_id: v.userId } });
      else await setRoleAt('user', v.userId, v.orgId, null);
    },
    onSuccess: invalidate,
  });
}

/** Looks a user of the enterprise up by exact address (to add it to an organization). */
export async function findUserByEmail(email: string) {
  const page = await apiCall('members.users.list', { query: { first: 1, email } });
  return page.items[0];
}

// ---------------------------------------------------------------- service users

export const serviceUsersInfiniteQueryOptions = (scope: MembersScope, includeInactive: boolean) =>
  cursorInfiniteQueryOptions({
    queryKey: serviceUserKeys.list(scope, includeInactive),
    page: (after, signal) => {
      const query = {
        first: MEMBERS_PAGE_SIZE,
        after,
        include_inactive: includeInactive ? ('true' as const) : undefined,
      };
      return scope.kind === 'enterprise'
        ? apiCall('serviceUsers.list', { query, signal })
        : apiCall('serviceUsers.organization.list', { params: { org_id: scope.orgId }, query, signal });
    },
    staleTime: 30_000,
  });

export const everyServiceUserQueryOptions = () =>
  queryOptions({
    queryKey: serviceUserKeys.everyone(),
    queryFn: ({ signal }) =>
      readAllPages(
        (after, s) => apiCall('serviceUsers.list', { query: { first: MEMBERS_PAGE_SIZE, after }, signal: s ?? signal }),
        { maxPages: MAX_PAGES, signal, what: 'The service users list' },
      ),
    staleTime: 30_000,
    retry: false,
  });

/** Creates a service user at the enterprise level (`orgId` null) or in an organization; the answer holds its credential. */
export function useCreateServiceUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { orgId: string | null; body: CreateServiceUserBody }) =>
      v.orgId === null
        ? apiCall('serviceUsers.create', { body: v.body })
        : apiCall('serviceUsers.organization.create', { params: { org_id: v.orgId }, body: v.body }),
    // The answer (with its credential) is never put in the cache: the lists are read again instead.
    onSuccess: () => qc.invalidateQueries({ queryKey: serviceUserKeys.all }),
  });
}

/** Gives a service user a role, or changes it: its enterprise role (`orgId` null) or its role in an organization. */
export function useSetServiceUserRole() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { serviceUserId: string; orgId: string | null; body: RoleIdBody }) =>
      setRoleAt('service-user', v.serviceUserId, v.orgId, v.body.role_id),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: serviceUserKeys.all }),
        qc.invalidateQueries({ queryKey: settingsHistoryKeys.all }),
      ]),
  });
}

export function useDeleteServiceUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { serviceUserId: string; orgId: string | null }) =>
      v.orgId === null
        ? apiCall('serviceUsers.delete', { params: { service_user_id: v.serviceUserId } })
        : apiCall('serviceUsers.organization.delete', {
            params: { org_id: v.orgId, service_user_id: v.serviceUserId },
          }),
    onSuccess: () => qc.invalidateQueries({ queryKey: serviceUserKeys.all }),
  });
}

// ---------------------------------------------------------------- IdP groups

export const idpGroupsInfiniteQueryOptions = () =>
  cursorInfiniteQueryOptions({
    queryKey: idpGroupKeys.lists(),
    page: (after, signal) => apiCall('idpGroups.list', { query: { first: MEMBERS_PAGE_SIZE, after }, signal }),
    staleTime: 30_000,
  });

/** A group's role at one level, as the role-mapping lists answer it. */
export type GroupRoles = ReadonlyMap<string, Role>;

/** The first role of a group's `role_assignments` at a level (`orgId` null: the enterprise). */
function roleAt(g: IdpGroup, orgId: string | null): Role | undefined {
  const list = g.role_assignments ?? [];
  // An organization's list may leave `org_id` out of its assignments: every one there is of that organization.
  return (orgId === null ? list.find((a) => !a.org_id) : (list.find((a) => a.org_id === orgId) ?? list[0]))?.role;
}

/** Each registered group's enterprise role, by group name (a group absent from the whole list has none). */
export const idpGroupEnterpriseRolesQueryOptions = () =>
  queryOptions({
    queryKey: idpGroupKeys.enterpriseRoles(),
    queryFn: async ({ signal }): Promise<GroupRoles> => {
      const groups = await readAllPages(
        (after, s) =>
          apiCall('idpGroups.roles.list', { query: { first: MEMBERS_PAGE_SIZE, after }, signal: s ?? signal }),
        { maxPages: MAX_PAGES, signal, what: 'The IdP groups’ enterprise roles' },
      );
      const out = new Map<string, Role>();
      for (const g of groups) {
        const role = roleAt(g, null);
        if (role) out.set(g.idp_group_name, role);
      }
      return out;
    },
    staleTime: 30_000,
    retry: false,
  });

/** Each group's role in one organization, by group name. */
export const idpGroupOrgRolesQueryOptions = (orgId: string) =>
  queryOptions({
    queryKey: idpGroupKeys.orgRoles(orgId),
    queryFn: async ({ signal }): Promise<GroupRoles> => {
      const groups = await readAllPages(
        (after, s) =>
          apiCall('idpGroups.organization.roles.list', {
            params: { org_id: orgId },
            query: { first: MEMBERS_PAGE_SIZE, after },
            signal: s ?? signal,
          }),
        { maxPages: MAX_PAGES, signal, what: 'The IdP groups’ roles in this organization' },
      );
      const out = new Map<string, Role>();
      for (const g of groups) {
        const role = roleAt(g, orgId);
        if (role) out.set(g.idp_group_name, role);
      }
      return out;
    },
    staleTime: 30_000,
    retry: false,
  });

/** After a group's role changed: its members' roles change with it, and the history has a new entry. */
function useInvalidateGroupRoles() {
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: idpGroupKeys.all }),
      qc.invalidateQueries({ queryKey: memberKeys.all }),
      qc.invalidateQueries({ queryKey: settingsHistoryKeys.all }),
    ]);
}

/** Gives a group a role, or changes it, at the enterprise level (`orgId` null) or in an organization. */
export function useSetIdpGroupRole() {
  return useMutation({
    mutationFn: (v: { name: string; orgId: string | null; body: RoleIdBody }) =>
      setRoleAt('idp-group', v.name, v.orgId, v.body.role_id),
    onSuccess: useInvalidateGroupRoles(),
  });
}

/** Removes a group's role at a level; the group stays registered. */
export function useRemoveIdpGroupRole() {
  return useMutation({
    mutationFn: (v: { name: string; orgId: string | null }) => setRoleAt('idp-group', v.name, v.orgId, null),
    onSuccess: useInvalidateGroupRoles(),
  });
}

export function useRegisterIdpGroups() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: RegisterIdpGroupsBody) => apiCall('idpGroups.create', { body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: idpGroupKeys.all }),
  });
}

export function useDeleteIdpGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => apiCall('idpGroups.delete', { params: { idp_group_name: name } }),
    // Its members lose what the group gave them: the member lists change too.
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: idpGroupKeys.all }),
        qc.invalidateQueries({ queryKey: memberKeys.all }),
      ]),
  });
}
