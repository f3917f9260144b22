/**
 * Code-scan findings: query keys, the findings list over cursor pages, one finding, the scans (for the
 * repository filter), the remediate call, and the live status of remediation sessions.
 */
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CodeScan, CodeScanFinding } from '@/api/operations/code-scans';
import { isTerminalStatus, type Session } from '@/api/operations/sessions';
import { readAllPages } from '@/api/page-walk';
import { apiCall } from '@/lib/api-client';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';
import { useDocumentVisible } from '@/lib/use-document-visible';
import type { FindingFilters } from './search';

export const FINDINGS_PAGE_SIZE = 200;
/** How often remediation sessions that are still live are checked. */
export const LIVE_POLL_MS = 5_000;

export const codeScanKeys = {
  all: ['code-scans'] as const,
  findings: () => [...codeScanKeys.all, 'findings'] as const,
  list: (filters: FindingFilters) => [...codeScanKeys.findings(), 'list', filters] as const,
  detail: (findingId: string) => [...codeScanKeys.findings(), 'detail', findingId] as const,
  scans: () => [...codeScanKeys.all, 'scans'] as const,
};

export const findingsInfiniteQueryOptions = (filters: FindingFilters) =>
  cursorInfiniteQueryOptions({
    queryKey: codeScanKeys.list(filters),
    page: (after, signal) =>
      apiCall('codeScans.findings.list', { query: { ...filters, first: FINDINGS_PAGE_SIZE, after }, signal }),
    staleTime: 30_000,
  });

export const findingQueryOptions = (findingId: string) =>
  queryOptions({
    queryKey: codeScanKeys.detail(findingId),
    queryFn: ({ signal }) => apiCall('codeScans.findings.get', { params: { finding_id: findingId }, signal }),
    staleTime: 10_000,
  });

/** Every scan (a sandbox extension): the repository filter's choices. Without it, the loaded findings' repositories. */
export const scansQueryOptions = () =>
  queryOptions({
    queryKey: codeScanKeys.scans(),
    queryFn: ({ signal }): Promise<CodeScan[]> =>
      readAllPages((after, s) => apiCall('codeScans.list', { query: { first: 200, after }, signal: s ?? signal }), {
        maxPages: 25,
        signal,
        what: 'The scans list',
      }),
    staleTime: 5 * 60_000,
    retry: false,
  });

export function remediateFinding(f: Pick<CodeScanFinding, 'org_id' | 'scan_id' | 'finding_id'>) {
  return apiCall('codeScans.findings.remediate', {
    params: { org_id: f.org_id, scan_id: f.scan_id, finding_id: f.finding_id },
  });
}

export function useInvalidateFindings() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: codeScanKeys.findings() });
}

export interface LiveSession {
  status: string;
  pull_request_url: string | null;
}

/**
 * The current status of remediation sessions: those given with a live status (not terminal) are asked about
 * every LIVE_POLL_MS through the enterprise sessions list (`session_ids`, one request per round), until each
 * reaches a terminal status. Polling pauses while the tab is hidden. Answers the latest status seen per session.
 */
export function useLiveRemediations(sessions: ReadonlyArray<{ id: string; status: string | null | undefined }>) {
  const visible = useDocumentVisible();
  const [seen, setSeen] = useState<ReadonlyMap<string, LiveSession>>(new Map());
  const live = useMemo(
    () =>
      [
        ...new Set(
          sessions
            .filter((s) => {
              const status = seen.get(s.id)?.status ?? s.status;
              return !status || !isTerminalStatus(status);
            })
            .map((s) => s.id),
        ),
      ].slice(0, 200),
    [sessions, seen],
  );
  const liveRef = useRef(live);
  useEffect(() => {
    liveRef.current = live;
  });
  const [lastPolledAt, setLastPolledAt] = useState<number | null>(null);
  const hasLive = live.length > 0;
  useEffect(() => {
    if (!visible || !hasLive) return;
    const controller = new AbortController();
    let running = false;
    const poll = async () => {
      const ids = liveRef.current;
      if (running || ids.length === 0) return;
      running = true;
      try {
        const page = await apiCall('sessions.enterprise.list', {
          query: { session_ids: ids, first: 200 },
          signal: controller.signal,
        });
        setSeen((prev) => {
          const next = new Map(prev);
          for (const s of page.items as Session[])
            next.set(s.session_id, { status: s.status, pull_request_url: s.pull_requests[0]?.pr_url ?? null });
          return next;
        });
        setLastPolledAt(Date.now());
      } catch {
        // The next round tries again; the list keeps the last status seen.
      } finally {
        running = false;
      }
    };
    void poll();
    const timer = setInterval(() => void poll(), LIVE_POLL_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [visible, hasLive]);
  return { seen, liveCount: live.length, paused: !visible && hasLive, lastPolledAt };
}
