/**
 * The URL search parameters of the members, service-user and access screens (every filter lives in the URL,
 * so a link can be shared), and what the member filters mean for one user.
 */
import { z } from 'zod';
import type { User } from '@/api/operations/members';

const text = z
  .preprocess((v) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : undefined), z.string())
  .transform((s) => (s ? s.slice(0, 300) : undefined))
  .optional()
  .catch(undefined);

const flag = z
  .preprocess((v) => (v === true || v === 'true' ? 'true' : undefined), z.literal('true').optional())
  .catch(undefined);

export const MembersSearch = z.object({
  /** Part of an address or a name; a whole address is looked up by the API. */
  q: text,
  /** A role id: members holding it (directly or through an IdP group). */
  role: text,
  /** Enterprise list: members with a role in this organization. */
  org: text,
});
export type MembersSearch = z.infer<typeof MembersSearch>;

export const OrgMembersSearch = MembersSearch.omit({ org: true }).extend({
  /** `idp`: the members who belong through IdP groups. */
  via: z.enum(['direct', 'idp']).optional().catch(undefined),
});
export type OrgMembersSearch = z.infer<typeof OrgMembersSearch>;

export const ServiceUsersSearch = z.object({
  /** Also expired and deleted service users. */
  inactive: flag,
});
export type ServiceUsersSearch = z.infer<typeof ServiceUsersSearch>;

export const AccessSearch = z.object({
  view: z.enum(['principal', 'permission']).optional().catch(undefined),
  /** `user:<id>` or `service_user:<id>`. */
  principal: text,
  permission: text,
  /** An organization id; absent: the enterprise level. */
  org: text,
});
export type AccessSearch = z.infer<typeof AccessSearch>;

/** Drops empty values so the URL stays short. */
export function clean<T extends object>(search: T): T {
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined && v !== '')) as T;
}

/** A whole email address: looked up by the API (exact, any letter case) rather than filtered in the browser. */
export function isWholeAddress(q: string | undefined): q is string {
  return !!q && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(q);
}

/** The `email` the API filters by, from the search box. */
export function apiEmail(search: { q?: string | undefined }): string | undefined {
  return isWholeAddress(search.q) ? search.q.toLowerCase() : undefined;
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
