/**
 * Live session status: the refresh interval preference, the list poll that refreshes only the live sessions
 * in view, and the timeline of status changes the console has seen.
 *
 * The list poll asks the API for the non-terminal sessions among the rows rendered (`session_ids` filter, one
 * request per interval however many pages are loaded) and merges the answers into the loaded pages, so pages,
 * cursors and the scroll position stay as they are. It stops when no live session is in view and pauses while
 * the tab is hidden.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Session } from '@/api/operations/sessions';
import { useDocumentVisible } from '@/lib/use-document-visible';
import { fetchSessionsPage, mergeSessionsIntoLists, type SessionScope } from './api';
import { isTerminalStatus } from './statuses';

export const REFRESH_OPTIONS: ReadonlyArray<{ label: string; ms: number }> = [
  { label: '2 s', ms: 2_000 },
  { label: '5 s', ms: 5_000 },
  { label: '10 s', ms: 10_000 },
  { label: '30 s', ms: 30_000 },
  { label: '1 min', ms: 60_000 },
  { label: 'Off', ms: 0 },
];
/** The spec's examples poll every 10 s. */
export const DEFAULT_REFRESH_MS = 10_000;
const STORAGE_KEY = 'sessions.refresh-ms';

const refreshListeners = new Set<() => void>();
function readRefresh(): number {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    const n = raw === null ? DEFAULT_REFRESH_MS : Number(raw);
    return REFRESH_OPTIONS.some((o) => o.ms === n) ? n : DEFAULT_REFRESH_MS;
  } catch {
    return DEFAULT_REFRESH_MS;
  }
}

/** The admin's chosen refresh interval (ms; 0 = off), shared by every sessions screen and remembered. */
export function useRefreshInterval(): [number, (ms: number) => void] {
  const ms = useSyncExternalStore(
    (cb) => {
      refreshListeners.add(cb);
      return () => refreshListeners.delete(cb);
    },
    readRefresh,
    () => DEFAULT_REFRESH_MS,
  );
  const set = useCallback((next: number) => {
    try {
      window.localStorage.setItem(STORAGE_KEY, String(next));
    } catch {
      // Private mode: the choice lasts for this page only.
    }
    refreshListeners.forEach((l) => l());
  }, []);
  return [ms, set];
}

/** The largest `session_ids` filter one poll sends (the page-size maximum). */
export const MAX_POLLED_SESSIONS = 200;

/** Sessions whose status may still change: everything not terminal, unknown statuses included. */
export function liveSessionIds(sessions: readonly Session[]): string[] {
  return sessions
    .filter((s) => !isTerminalStatus(s.status))
    .map((s) => s.session_id)
    .slice(0, MAX_POLLED_SESSIONS);
}

export interface LiveState {
  /** When the last poll answered (ms), or null before the first. */
  lastPolledAt: number | null;
  /** Live sessions among the rows in view. */
  liveInView: number;
  paused: 'hidden' | 'off' | null;
  intervalMs: number;
  error: unknown;
}

export function useLiveSessions(opts: {
  scope: SessionScope;
  inView: readonly Session[];
  intervalMs: number;
}): LiveState {
  const { scope, inView, intervalMs } = opts;
  const queryClient = useQueryClient();
  const visible = useDocumentVisible();
  const ids = liveSessionIds(inView);
  const idsRef = useRef(ids);
  useEffect(() => {
    idsRef.current = ids;
  });
  const [lastPolledAt, setLastPolledAt] = useState<number | null>(null);
  const lastRef = useRef(0);
  const [error, setError] = useState<unknown>(null);
  const hasLive = ids.length > 0;

  useEffect(() => {
    if (!visible || intervalMs <= 0 || !hasLive) return;
    const controller = new AbortController();
    let running = false;
    const poll = async () => {
      const current = idsRef.current;
      if (running || current.length === 0) return;
      running = true;
      try {
        const page = await fetchSessionsPage(
          scope,
          { session_ids: current, first: MAX_POLLED_SESSIONS },
          controller.signal,
        );
        mergeSessionsIntoLists(queryClient, page.items);
        lastRef.current = Date.now();
        setLastPolledAt(lastRef.current);
        setError(null);
      } catch (err) {
        if (!controller.signal.aborted) setError(err);
      } finally {
        running = false;
      }
    };
    // The first poll is due one interval after the last (at once when back from a hidden tab and overdue).
    const since = lastRef.current === 0 ? 0 : Date.now() - lastRef.current;
    const delay = lastRef.current === 0 ? intervalMs : Math.max(0, intervalMs - since);
    let timer: ReturnType<typeof setInterval> | undefined;
    const first = setTimeout(() => {
      void poll();
      timer = setInterval(() => void poll(), intervalMs);
    }, delay);
    return () => {
      controller.abort();
      clearTimeout(first);
      if (timer) clearInterval(timer);
    };
  }, [visible, intervalMs, hasLive, scope, queryClient]);

  return {
    lastPolledAt,
    liveInView: ids.length,
    paused: intervalMs <= 0 ? 'off' : !visible ? 'hidden' : null,
    intervalMs,
    error,
  };
}

// ------------------------------------------------------------------ status timeline

export interface StatusChange {
  status: string;
  status_detail: string | null | undefined;
  /** When the console saw it (ms). */
  seenAt: number;
}

const timelines = new Map<string, StatusChange[]>();
const timelineListeners = new Set<() => void>();
const EMPTY: StatusChange[] = [];

/** Records a session's status if it differs from the last one seen. */
export function recordStatus(
  session: Pick<Session, 'session_id' | 'status' | 'status_detail'>,
  seenAt = Date.now(),
): void {
  const list = timelines.get(session.session_id) ?? [];
  const last = list[list.length - 1];
  if (last && last.status === session.status && (last.status_detail ?? null) === (session.status_detail ?? null))
    return;
  timelines.set(
    session.session_id,
    [...list, { status: session.status, status_detail: session.status_detail, seenAt }].slice(-100),
  );
  timelineListeners.forEach((l) => l());
}

/** The status changes seen for one session during this visit of the console. */
export function useStatusTimeline(sessionId: string): StatusChange[] {
  return useSyncExternalStore(
    (cb) => {
      timelineListeners.add(cb);
      return () => timelineListeners.delete(cb);
    },
    () => timelines.get(sessionId) ?? EMPTY,
    () => EMPTY,
  );
}
