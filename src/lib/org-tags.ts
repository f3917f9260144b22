/**
 * An organization's allowed session tags and default tag: query keys and options, read by the tag settings
 * screen and by the session forms (which offer only allowed tags while validation is on). Validation is on
 * while the allowed list is not empty (the contract's choice: the reference shows no separate switch).
 */
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';

export const orgTagKeys = {
  all: ['org-tags'] as const,
  allowed: (orgId: string) => [...orgTagKeys.all, orgId, 'allowed'] as const,
  defaultTag: (orgId: string) => [...orgTagKeys.all, orgId, 'default'] as const,
};

export const allowedTagsQueryOptions = (orgId: string) =>
  queryOptions({
    queryKey: orgTagKeys.allowed(orgId),
    queryFn: ({ signal }) => apiCall('organizations.tags.get', { params: { org_id: orgId }, signal }),
    staleTime: 60_000,
    // A 403 (the credential cannot read tag settings) is an answer: the forms fall back to free text.
    retry: false,
  });

export const defaultTagQueryOptions = (orgId: string) =>
  queryOptions({
    queryKey: orgTagKeys.defaultTag(orgId),
    queryFn: ({ signal }) => apiCall('organizations.defaultTag.get', { params: { org_id: orgId }, signal }),
    staleTime: 60_000,
    retry: false,
  });

/** The allowed tags when validation is on for the organization; undefined while unknown, off, or unreadable. */
export function validatedTags(data: { tags: string[] } | undefined): string[] | undefined {
  return data && data.tags.length > 0 ? data.tags : undefined;
}
