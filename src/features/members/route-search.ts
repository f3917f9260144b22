/**
 * The members, service-user, access and roles screens' search as the routes read it (every filter lives in the
 * URL, so a link can be shared): the definitions and what keys each list's query. Without zod and without the
 * screens' helpers (src/features/members/search.ts), so the first screen carries only this.
 */
import { defineSearch, oneOf, type SearchField, type SearchOf } from '@/lib/search-params';

/** Free text: a string or a number (`?q=123` reads as one), trimmed, at most 300 characters; empty is no filter. */
const memberText: SearchField<string | undefined> = (v) => {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const s = String(v).trim();
  return s ? s.slice(0, 300) : undefined;
};

export const MembersSearch = defineSearch({
  operation: 'members.users.list',
  fields: {
    /** Part of an address or a name; a whole address is looked up by the API. */
    q: memberText,
    /** A role id: members holding it (directly or through an IdP group). */
    role: memberText,
    /** Enterprise list: members with a role in this organization. */
    org: memberText,
  },
  // The API filters by a whole address only; the rest narrows the loaded rows in the browser.
  filters: (s) => ({ email: apiEmail(s) }),
});
export type MembersSearch = SearchOf<typeof MembersSearch>;

export const OrgMembersSearch = defineSearch({
  operation: 'members.organization.users.list',
  fields: {
    q: memberText,
    role: memberText,
    /** `idp`: the members who belong through IdP groups. */
    via: oneOf(['direct', 'idp']),
  },
  filters: (s) => ({ email: apiEmail(s), via: s.via }),
});
export type OrgMembersSearch = SearchOf<typeof OrgMembersSearch>;

export const ServiceUsersSearch = defineSearch({
  operation: 'serviceUsers.list',
  fields: {
    /** Also expired and deleted service users. */
    inactive: (v: unknown) => (v === true || v === 'true' ? ('true' as const) : undefined),
  },
  filters: (s) => ({ inactive: s.inactive === 'true' }),
});
export type ServiceUsersSearch = SearchOf<typeof ServiceUsersSearch>;

export const AccessSearch = defineSearch({
  fields: {
    view: oneOf(['principal', 'permission']),
    /** `user:<id>` or `service_user:<id>`. */
    principal: memberText,
    permission: memberText,
    /** An organization id; absent: the enterprise level. */
    org: memberText,
  },
});
export type AccessSearch = SearchOf<typeof AccessSearch>;

/** The roles screen: the list or the role × permission matrix. */
export const RolesSearch = defineSearch({ fields: { view: oneOf(['list', 'matrix']) } });

/** A whole email address: looked up by the API (exact, any letter case) rather than filtered in the browser. */
export function isWholeAddress(q: string | undefined): q is string {
  return !!q && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(q);
}

/** The `email` the API filters by, from the search box. */
export function apiEmail(search: { q?: string | undefined }): string | undefined {
  return isWholeAddress(search.q) ? search.q.toLowerCase() : undefined;
}
