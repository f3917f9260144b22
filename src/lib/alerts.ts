/**
 * Alerts' query keys and the unread count, shared by the header's notifications bell (app shell) and the alerts
 * screens (features/alerts): a change on either refreshes both.
 */
import { queryOptions } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';

export const alertKeys = {
  all: ['alerts'] as const,
  unread: () => [...alertKeys.all, 'unread'] as const,
  rules: () => [...alertKeys.all, 'rules'] as const,
  notifications: (unread: boolean) => [...alertKeys.all, 'notifications', unread ? 'unread' : 'all'] as const,
  webhooks: () => [...alertKeys.all, 'webhooks'] as const,
  deliveries: () => [...alertKeys.all, 'deliveries'] as const,
};

/** How often the header asks (rules are evaluated every minute by default). */
export const UNREAD_POLL_MS = 30_000;

export const unreadCountQueryOptions = () =>
  queryOptions({
    queryKey: alertKeys.unread(),
    queryFn: ({ signal }) => apiCall('console.alerts.unreadCount.get', { signal }),
    refetchInterval: UNREAD_POLL_MS,
    staleTime: 10_000,
  });
