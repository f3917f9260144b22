/**
 * Knowledge notes: query keys, query options and mutations for both scopes — the enterprise (every note) and
 * one organization (its org notes). The same screens serve both; `NoteScope` picks the operations.
 */
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { notFound } from '@tanstack/react-router';
import type { KnowledgeNote, KnowledgeNoteBody, NoteAccessType } from '@/api/operations/knowledge';
import { apiCall } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

export type NoteScope = { kind: 'enterprise' } | { kind: 'org'; orgId: string };

/** The list filters, as they live in the URL. */
export interface NoteFilters {
  search?: string;
  folder_path?: string;
  pinned_repo?: string;
  /** Enterprise list only. */
  access_type?: NoteAccessType;
}

export const NOTES_PAGE_SIZE = 50;

const scopeKey = (scope: NoteScope) => (scope.kind === 'enterprise' ? 'enterprise' : `org:${scope.orgId}`);

export const knowledgeKeys = {
  all: ['knowledge'] as const,
  scope: (scope: NoteScope) => [...knowledgeKeys.all, scopeKey(scope)] as const,
  lists: (scope: NoteScope) => [...knowledgeKeys.scope(scope), 'list'] as const,
  list: (scope: NoteScope, filters: NoteFilters) => [...knowledgeKeys.lists(scope), filters] as const,
  detail: (scope: NoteScope, noteId: string) => [...knowledgeKeys.scope(scope), 'detail', noteId] as const,
  folders: (scope: NoteScope) => [...knowledgeKeys.scope(scope), 'folders'] as const,
};

export const notesInfiniteQueryOptions = (scope: NoteScope, filters: NoteFilters) =>
  cursorInfiniteQueryOptions({
    queryKey: knowledgeKeys.list(scope, filters),
    page: (pageParam, signal) => {
      const { search, folder_path, pinned_repo, access_type } = filters;
      const page = { first: NOTES_PAGE_SIZE, after: pageParam };
      return scope.kind === 'enterprise'
        ? apiCall('knowledge.enterprise.list', {
            query: { ...page, search, folder_path, pinned_repo, access_type },
            signal,
          })
        : apiCall('knowledge.list', {
            params: { org_id: scope.orgId },
            query: { ...page, search, folder_path, pinned_repo },
            signal,
          });
    },
  });

export const noteQueryOptions = (scope: NoteScope, noteId: string) =>
  queryOptions({
    queryKey: knowledgeKeys.detail(scope, noteId),
    queryFn: ({ signal }) =>
      scope.kind === 'enterprise'
        ? apiCall('knowledge.enterprise.get', { params: { note_id: noteId }, signal })
        : apiCall('knowledge.get', { params: { org_id: scope.orgId, note_id: noteId }, signal }),
  });

export const foldersQueryOptions = (scope: NoteScope) =>
  queryOptions({
    queryKey: knowledgeKeys.folders(scope),
    queryFn: ({ signal }) =>
      scope.kind === 'enterprise'
        ? apiCall('knowledge.enterprise.folders.list', { signal })
        : apiCall('knowledge.folders.list', { params: { org_id: scope.orgId }, signal }),
    staleTime: 60_000,
  });

/** After any change, every knowledge list, folder count and note of this area may differ. */
function useInvalidateKnowledge() {
  const qc = useQueryClient();
  return (note?: KnowledgeNote, scope?: NoteScope) => {
    if (note && scope) qc.setQueryData(knowledgeKeys.detail(scope, note.note_id), note);
    return qc.invalidateQueries({ queryKey: knowledgeKeys.all });
  };
}

export function useCreateNote(scope: NoteScope) {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationFn: (body: KnowledgeNoteBody) =>
      scope.kind === 'enterprise'
        ? apiCall('knowledge.enterprise.create', { body })
        : apiCall('knowledge.create', { params: { org_id: scope.orgId }, body }),
    onSuccess: (note) => invalidate(note, scope),
  });
}

export function useUpdateNote(scope: NoteScope, noteId: string) {
  const invalidate = useInvalidateKnowledge();
  return useMutation({
    mutationFn: (body: KnowledgeNoteBody) =>
      scope.kind === 'enterprise'
        ? apiCall('knowledge.enterprise.update', { params: { note_id: noteId }, body })
        : apiCall('knowledge.update', { params: { org_id: scope.orgId, note_id: noteId }, body }),
    onSuccess: (note) => invalidate(note, scope),
  });
}

export function useDeleteNote(scope: NoteScope) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (noteId: string) =>
      scope.kind === 'enterprise'
        ? apiCall('knowledge.enterprise.delete', { params: { note_id: noteId } })
        : apiCall('knowledge.delete', { params: { org_id: scope.orgId, note_id: noteId } }),
    onSuccess: (note) =>
      // The note's own page is still open until the caller navigates away: refetching its detail would ask
      // for a note that is gone (a 404). Refresh the lists and folders only; the caller drops the detail
      // once it has left the page (`forgetNote`).
      qc.invalidateQueries({
        queryKey: knowledgeKeys.all,
        predicate: (q) => !(q.queryKey.includes('detail') && q.queryKey.includes(note.note_id)),
      }),
  });
}

/** Drops a deleted note from the cache, after its page has closed (so a later link to it reads a 404). */
export function forgetNote(qc: QueryClient, scope: NoteScope, noteId: string): void {
  qc.removeQueries({ queryKey: knowledgeKeys.detail(scope, noteId), exact: true });
}

/** Route loader: fetches one note, turning a 404 into the router's not-found. */
export async function loadNote(queryClient: QueryClient, scope: NoteScope, noteId: string): Promise<void> {
  try {
    await queryClient.query(noteQueryOptions(scope, noteId));
  } catch (err) {
    if (isApiError(err) && err.status === 404) throw notFound();
    throw err;
  }
}
