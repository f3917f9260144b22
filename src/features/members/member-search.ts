/**
 * One member's page: its URL search (`?org=`, the organization whose member is read; absent: the enterprise's)
 * and its query. Without a schema library: the route reads it on every navigation, so it stays off the first
 * screen's scripts; the page itself loads with the route.
 */
import { queryOptions } from '@tanstack/react-query';
import type { User } from '@/api/operations/members';
import { apiCall } from '@/lib/api-client';
import { defineSearch, text, type SearchOf } from '@/lib/search-params';
import { memberKeys } from './keys';

export const MemberPageSearch = defineSearch({ fields: { org: text({ min: 5, max: 200, pattern: /^org-/ }) } });
export type MemberPageSearch = SearchOf<typeof MemberPageSearch>;

export const memberQueryOptions = (userId: string, orgId: string | undefined) =>
  queryOptions({
    queryKey: [...memberKeys.all, 'member', orgId ?? 'enterprise', userId] as const,
    queryFn: ({ signal }): Promise<User> =>
      orgId
        ? apiCall('members.organization.users.get', { params: { org_id: orgId, user_id: userId }, signal })
        : apiCall('members.users.get', { params: { user_id: userId }, signal }),
    staleTime: 15_000,
  });
