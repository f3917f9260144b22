/**
 * The URL search parameters of the members, service-user and access screens (every filter lives in the URL,
 * so a link can be shared), and what the member filters mean for one user.
 */
import type { User } from '@/api/operations/members';
import { isWholeAddress, type MembersSearch } from './route-search';

export {
  AccessSearch,
  apiEmail,
  isWholeAddress,
  MembersSearch,
  OrgMembersSearch,
  RolesSearch,
  ServiceUsersSearch,
} from './route-search';

/** Drops empty values so the URL stays short. */
export function clean<T extends object>(search: T): T {
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined && v !== '')) as T;
}

/** Whether the filters need every page (they narrow the loaded rows in the browser). */
export function filtersInBrowser(search: MembersSearch): boolean {
  return !!search.role || !!search.org || (!!search.q && !isWholeAddress(search.q));
}

/** Whether a user passes the filters: the text in its address or name; the role, in the organization when one is given. */
export function memberMatches(user: User, search: MembersSearch): boolean {
  const q = search.q?.toLowerCase();
  if (q && !isWholeAddress(q)) {
    const hay = `${user.email ?? ''} ${user.name ?? ''}`.toLowerCase();
    if (!hay.includes(q)) return false;
  }
  if (!search.role && !search.org) return true;
  const assignments = [...user.role_assignments, ...(user.idp_role_assignments ?? [])];
  return assignments.some(
    (a) => (!search.role || a.role.role_id === search.role) && (!search.org || a.org_id === search.org),
  );
}
