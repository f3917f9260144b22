/**
 * Changing an organization's allowed session tags and its default tag (keys and reads in lib/org-tags),
 * through the console's guarded endpoint, which records each change in the settings history with who made it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { settingsHistoryKeys } from '@/api/console/settings-history-keys';
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
    mutationFn: async (change: TagChange) => {
      const params = { org_id: orgId };
      await apiCall('console.settings.orgTags.change', { params, body: change });
      // The answer of a change may be the default tag's or nothing (unchanged): the list is read again.
      return apiCall('organizations.tags.get', { params });
    },
    onSuccess: (data) => {
      qc.setQueryData(orgTagKeys.allowed(orgId), data);
      // Replacing may clear a default tag no longer allowed.
      void qc.invalidateQueries({ queryKey: orgTagKeys.defaultTag(orgId) });
      void qc.invalidateQueries({ queryKey: settingsHistoryKeys.all });
    },
  });
}

export function useSetDefaultTag(orgId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (tag: string | null) => {
      const params = { org_id: orgId };
      await apiCall('console.settings.orgTags.change', { params, body: { mode: 'default', tag } });
      return apiCall('organizations.defaultTag.get', { params });
    },
    onSuccess: (data) => {
      qc.setQueryData(orgTagKeys.defaultTag(orgId), data);
      void qc.invalidateQueries({ queryKey: settingsHistoryKeys.all });
    },
  });
}
