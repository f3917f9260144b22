/** Sessions: query keys, query options and mutations. Mutations update their own session's caches only. */
import { queryOptions, useMutation, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { CreateSessionBody, Session } from '@/api/operations/sessions';
import { nextCursor, type Page } from '@/api/cursor';
import { apiCall } from '@/lib/api-client';
import type { SessionListFilters } from './list-query';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

/** Rows per page of the sessions lists; messages per page of a thread. */
export const SESSIONS_PAGE_SIZE = 100;
export const MESSAGES_PAGE_SIZE = 50;
/** Most pages of a thread read at once to show the newest message. */
const THREAD_MAX_PAGES = 40;

/** `orgId` for an organization's list, or `enterprise` for the list across organizations. */
export type SessionScope = string;
export const ENTERPRISE_SCOPE = 'enterprise';

export const sessionKeys = {
  all: ['sessions'] as const,
  lists: () => [...sessionKeys.all, 'list'] as const,
  list: (scope: SessionScope, filters: SessionListFilters) => [...sessionKeys.lists(), scope, filters] as const,
  details: () => [...sessionKeys.all, 'detail'] as const,
  detail: (orgId: string, sessionId: string) => [...sessionKeys.details(), orgId, sessionId] as const,
  messages: (orgId: string, sessionId: string) => [...sessionKeys.detail(orgId, sessionId), 'messages'] as const,
  insights: (orgId: string, sessionId: string) => [...sessionKeys.detail(orgId, sessionId), 'insights'] as const,
};

export type SessionsPages = InfiniteData<Page<Session>, string | undefined>;

/** One page of a sessions list, of an organization or across organizations. */
export function fetchSessionsPage(
  scope: SessionScope,
  query: SessionListFilters & { first?: number; after?: string | undefined },
  signal?: AbortSignal,
): Promise<Page<Session>> {
  return scope === ENTERPRISE_SCOPE
    ? apiCall('sessions.enterprise.list', { query, signal })
    : apiCall('sessions.list', { params: { org_id: scope }, query, signal });
}

/**
 * The list, page by page. Loaded pages are never refetched behind the admin's back (no refetch on focus,
 * long stale time): live statuses are merged into them by `useLiveSessions`, which keeps every loaded page
 * and the scroll position.
 */
export const sessionsInfiniteQueryOptions = (scope: SessionScope, filters: SessionListFilters) =>
  cursorInfiniteQueryOptions({
    queryKey: sessionKeys.list(scope, filters),
    page: (pageParam, signal) =>
      fetchSessionsPage(scope, { ...filters, first: SESSIONS_PAGE_SIZE, after: pageParam }, signal),
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
  });

export const sessionQueryOptions = (orgId: string, sessionId: string) =>
  queryOptions({
    queryKey: sessionKeys.detail(orgId, sessionId),
    queryFn: ({ signal }) => apiCall('sessions.get', { params: { org_id: orgId, agent_id: sessionId }, signal }),
    staleTime: 2_000,
  });

/**
 * A session of any organization, through the enterprise operation (the enterprise-wide session page, where the
 * organization is not known until the session is read). Kept under the `enterprise` scope of the detail keys.
 */
export const enterpriseSessionQueryOptions = (sessionId: string) =>
  queryOptions({
    queryKey: sessionKeys.detail(ENTERPRISE_SCOPE, sessionId),
    queryFn: ({ signal }) => apiCall('sessions.enterprise.get', { params: { agent_id: sessionId }, signal }),
    staleTime: 2_000,
  });

/** Which operations a session page uses: the organization's, or the enterprise-wide ones. */
export type SessionPageScope = 'org' | 'enterprise';

export const messagesInfiniteQueryOptions = (orgId: string, sessionId: string) =>
  cursorInfiniteQueryOptions({
    queryKey: sessionKeys.messages(orgId, sessionId),
    page: (pageParam, signal) =>
      apiCall('sessions.messages.list', {
        params: { org_id: orgId, agent_id: sessionId },
        query: { first: MESSAGES_PAGE_SIZE, after: pageParam },
        signal,
      }),
    staleTime: 5_000,
  });

export const insightsQueryOptions = (orgId: string, sessionId: string) =>
  queryOptions({
    queryKey: sessionKeys.insights(orgId, sessionId),
    queryFn: ({ signal }) =>
      apiCall('sessions.insights.get', { params: { org_id: orgId, agent_id: sessionId }, signal }),
    staleTime: 5_000,
  });

/** Replaces sessions in every loaded list page where they appear, keeping pages, cursors and order. */
export function mergeSessionsIntoLists(queryClient: QueryClient, sessions: readonly Session[]): void {
  if (sessions.length === 0) return;
  const byId = new Map(sessions.map((s) => [s.session_id, s]));
  queryClient.setQueriesData<SessionsPages>({ queryKey: sessionKeys.lists() }, (old) =>
    old ? mergePages(old, byId) : old,
  );
}

export function mergePages(old: SessionsPages, byId: ReadonlyMap<string, Session>): SessionsPages {
  let changed = false;
  const pages = old.pages.map((p) => {
    let pageChanged = false;
    const items = p.items.map((s) => {
      const next = byId.get(s.session_id);
      if (!next || sameSession(s, next)) return s;
      pageChanged = true;
      return next;
    });
    if (!pageChanged) return p;
    changed = true;
    return { ...p, items };
  });
  return changed ? { ...old, pages } : old;
}

function sameSession(a: Session, b: Session): boolean {
  return (
    a.updated_at === b.updated_at &&
    a.status === b.status &&
    a.status_detail === b.status_detail &&
    a.is_archived === b.is_archived &&
    a.tags.join(',') === b.tags.join(',')
  );
}

/** After a mutation answered with the session: the detail and any list rows show it at once. */
function useApplySession() {
  const queryClient = useQueryClient();
  return (session: Session) => {
    queryClient.setQueryData(sessionKeys.detail(session.org_id, session.session_id), session);
    // The enterprise-wide page reads the same session under its own key.
    const enterpriseKey = sessionKeys.detail(ENTERPRISE_SCOPE, session.session_id);
    if (queryClient.getQueryData(enterpriseKey)) queryClient.setQueryData(enterpriseKey, session);
    mergeSessionsIntoLists(queryClient, [session]);
  };
}

export function useCreateSession(orgId: string) {
  return useMutation({
    mutationFn: (body: CreateSessionBody) => apiCall('sessions.create', { params: { org_id: orgId }, body }),
    // The body holds session secret values: do not keep it in the mutation cache after the form is gone.
    gcTime: 0,
  });
}

export function useSendMessage(orgId: string, sessionId: string, scope: SessionPageScope = 'org') {
  const queryClient = useQueryClient();
  const apply = useApplySession();
  return useMutation({
    mutationFn: (message: string) =>
      scope === 'enterprise'
        ? apiCall('sessions.enterprise.messages.send', { params: { agent_id: sessionId }, body: { message } })
        : apiCall('sessions.messages.send', { params: { org_id: orgId, agent_id: sessionId }, body: { message } }),
    onSuccess: (session) => {
      apply(session);
      readThreadToEnd(queryClient, orgId, sessionId);
    },
  });
}

/**
 * The thread reads oldest first, so a new message is on its last page, which may not be loaded yet: read the
 * pages up to the end (bounded). Concurrent calls share one fetch, so the message just sent is never lost to a
 * plain refetch of the pages already loaded.
 */
export function readThreadToEnd(queryClient: QueryClient, orgId: string, sessionId: string): void {
  void queryClient
    .fetchInfiniteQuery({ ...messagesInfiniteQueryOptions(orgId, sessionId), pages: THREAD_MAX_PAGES, staleTime: 0 })
    .catch(() => undefined);
}

export function useArchiveSession(orgId: string, sessionId: string) {
  const apply = useApplySession();
  return useMutation({
    mutationFn: () => apiCall('sessions.archive', { params: { org_id: orgId, agent_id: sessionId } }),
    onSuccess: apply,
  });
}

export function useTerminateSession(orgId: string, sessionId: string) {
  const queryClient = useQueryClient();
  const apply = useApplySession();
  return useMutation({
    mutationFn: (archive: boolean) =>
      apiCall('sessions.terminate', {
        params: { org_id: orgId, agent_id: sessionId },
        query: archive ? { archive: 'true' } : {},
      }),
    onSuccess: (session) => {
      apply(session);
      void queryClient.invalidateQueries({ queryKey: sessionKeys.messages(orgId, sessionId) });
    },
  });
}

export function useUpdateTags(orgId: string, sessionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ mode, tags }: { mode: 'append' | 'replace'; tags: string[] }) =>
      apiCall(mode === 'append' ? 'sessions.tags.append' : 'sessions.tags.replace', {
        params: { org_id: orgId, agent_id: sessionId },
        body: { tags },
      }),
    onSuccess: ({ tags }) => {
      const key = sessionKeys.detail(orgId, sessionId);
      const current = queryClient.getQueryData<Session>(key);
      if (current) {
        const next = { ...current, tags };
        queryClient.setQueryData(key, next);
        mergeSessionsIntoLists(queryClient, [next]);
      }
      void queryClient.invalidateQueries({ queryKey: key, exact: true });
    },
  });
}

export function useGenerateInsights(orgId: string, sessionId: string, scope: SessionPageScope = 'org') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      scope === 'enterprise'
        ? apiCall('sessions.enterprise.insights.generate', { params: { agent_id: sessionId } })
        : apiCall('sessions.insights.generate', { params: { org_id: orgId, agent_id: sessionId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: sessionKeys.insights(orgId, sessionId) }),
  });
}

/** Most members the "Create as user" picker reads (5 pages of 200). */
export const MEMBER_CHOICES_MAX = 1_000;

export interface MemberChoice {
  user_id: string;
  name: string | null;
  email: string | null;
}

/**
 * The organization's members to create a session on behalf of, by name (then email), read page by page up to
 * MEMBER_CHOICES_MAX; `more` says the organization has others the picker does not list.
 */
export const memberChoicesQueryOptions = (orgId: string) =>
  queryOptions({
    queryKey: ['sessions', 'member-choices', orgId] as const,
    queryFn: async ({ signal }) => {
      const members: MemberChoice[] = [];
      let after: string | undefined;
      let more = false;
      for (;;) {
        const page = await apiCall('members.organization.users.list', {
          params: { org_id: orgId },
          query: { first: 200, after },
          signal,
        });
        for (const u of page.items) members.push({ user_id: u.user_id, name: u.name, email: u.email });
        after = nextCursor(page);
        if (!after) break;
        if (members.length >= MEMBER_CHOICES_MAX) {
          more = true;
          break;
        }
      }
      const key = (m: MemberChoice) => (m.name ?? m.email ?? m.user_id).toLocaleLowerCase();
      members.sort((a, b) => key(a).localeCompare(key(b)));
      return { members, more };
    },
    staleTime: 5 * 60_000,
    retry: 1,
  });
