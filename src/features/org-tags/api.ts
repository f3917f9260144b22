/** Changing an organization's allowed session tags and its default tag (keys and reads in lib/org-tags). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';
import { orgTagKeys } from '@/lib/org-tags';

export type TagChange =
  | { mode: 'append'; tags: string[] }
  | { mode: 'replace'; tags: string[] }
  | { mode: 'remove'; tag: string }
  | { mode: 'clear' };

export function useChangeAllowedTags(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (change: TagChange) => {
      const params = { org_id: orgId };
      switch (change.mode) {
        case 'append':
          return apiCall('organizations.tags.append', { params, body: { tags: change.tags } });
        case 'replace':
          return apiCall('organizations.tags.replace', { params, body: { tags: change.tags } });
        case 'clear':
          return apiCall('organizations.tags.clear', { params });
        case 'remove':
          // `…/tags/default` is the default tag's path: a tag named "default" goes by replacing the list.
          return change.tag === 'default'
            ? apiCall('organizations.tags.get', { params }).then(({ tags }) =>
                apiCall('organizations.tags.replace', { params, body: { tags: tags.filter((t) => t !== 'default') } }),
              )
            : apiCall('organizations.tags.remove', { params: { ...params, tag: change.tag } });
      }
    },
    onSuccess: (data) => {
      qc.setQueryData(orgTagKeys.allowed(orgId), data);
      // Replacing may clear a default tag no longer allowed.
      void qc.invalidateQueries({ queryKey: orgTagKeys.defaultTag(orgId) });
    },
  });
}

export function useSetDefaultTag(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (tag: string | null) =>
      tag === null
        ? apiCall('organizations.defaultTag.clear', { params: { org_id: orgId } })
        : apiCall('organizations.defaultTag.update', { params: { org_id: orgId }, body: { tag } }),
    onSuccess: (data) => qc.setQueryData(orgTagKeys.defaultTag(orgId), data),
  });
}
