/**
 * While the API cannot be reached, probe it every few seconds; once it answers again, refetch the screens
 * that failed, so the console recovers by itself without a reload.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { apiCall } from './api-client';
import { offlineSignal } from './api-events';

export const RECOVERY_PROBE_MS = 4_000;

export function useUpstreamRecovery(): boolean {
  const queryClient = useQueryClient();
  const router = useRouter();
  const wasOffline = useRef(false);
  const offline = useSyncExternalStore(offlineSignal.subscribe, offlineSignal.get, offlineSignal.get);
  useEffect(() => {
    if (!offline) return;
    let stopped = false;
    const probe = async () => {
      if (stopped || document.visibilityState === 'hidden') return;
      try {
        // The cheapest call every credential may make; any answer from the API means it is back.
        await apiCall('organizations.list', { query: { first: 1 } });
        offlineSignal.set(false);
      } catch {
        // still down: the next probe tries again
      }
    };
    const timer = setInterval(() => void probe(), RECOVERY_PROBE_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [offline]);
  useEffect(() => {
    if (offline) {
      wasOffline.current = true;
      return;
    }
    if (!wasOffline.current) return;
    wasOffline.current = false;
    // Back: refetch whatever failed meanwhile, and rerun the loaders of a screen that failed to open.
    void queryClient.refetchQueries({ predicate: (q) => q.state.status === 'error' && q.getObserversCount() > 0 });
    void router.invalidate({ filter: (match) => match.status === 'error' });
  }, [offline, queryClient, router]);
  return offline;
}
