/**
 * Alerts: query keys and options for rules, notifications (with the unread count the header shows), webhook
 * destinations and their delivery log, and the mutations. A webhook's URL travels once, in the create body; its
 * signing secret comes back once, in the create answer, and is never cached.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AlertRuleBody, AlertRulePatch, WebhookBody } from '@/api/console/alerts';
import { apiCall } from '@/lib/api-client';
import { alertKeys } from '@/lib/alerts';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';

export { alertKeys, unreadCountQueryOptions } from '@/lib/alerts';

export const rulesQueryOptions = () =>
  queryOptions({
    queryKey: alertKeys.rules(),
    queryFn: ({ signal }) => apiCall('console.alerts.rules.list', { signal }),
    staleTime: 10_000,
  });

export const notificationsInfiniteQueryOptions = (unread: boolean) =>
  cursorInfiniteQueryOptions({
    queryKey: alertKeys.notifications(unread),
    page: (after, signal) =>
      apiCall('console.alerts.notifications.list', {
        query: { first: 50, after: after ?? undefined, unread: unread ? 'true' : undefined },
        signal,
      }),
    staleTime: 10_000,
  });

export const webhooksQueryOptions = () =>
  queryOptions({
    queryKey: alertKeys.webhooks(),
    queryFn: ({ signal }) => apiCall('console.alerts.webhooks.list', { signal }),
    staleTime: 30_000,
  });

export const deliveriesInfiniteQueryOptions = () =>
  cursorInfiniteQueryOptions({
    queryKey: alertKeys.deliveries(),
    page: (after, signal) =>
      apiCall('console.alerts.deliveries.list', { query: { first: 100, after: after ?? undefined }, signal }),
    staleTime: 10_000,
  });

/** Everything an evaluation or a notification change can move: notifications, the count, rules, the log. */
function useRefreshAlerts() {
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: alertKeys.all });
}

export function useCreateRule() {
  const refresh = useRefreshAlerts();
  return useMutation({
    mutationFn: (body: AlertRuleBody) => apiCall('console.alerts.rules.create', { body }),
    onSuccess: refresh,
  });
}

export function useUpdateRule() {
  const refresh = useRefreshAlerts();
  return useMutation({
    mutationFn: ({ ruleId, body }: { ruleId: string; body: AlertRulePatch }) =>
      apiCall('console.alerts.rules.update', { params: { rule_id: ruleId }, body }),
    onSuccess: refresh,
  });
}

export function useDeleteRule() {
  const refresh = useRefreshAlerts();
  return useMutation({
    mutationFn: (ruleId: string) => apiCall('console.alerts.rules.delete', { params: { rule_id: ruleId } }),
    onSuccess: refresh,
  });
}

/** "Check now": evaluates every rule and sends what is due. */
export function useEvaluate() {
  const refresh = useRefreshAlerts();
  return useMutation({
    mutationFn: () => apiCall('console.alerts.evaluations.create'),
    onSuccess: refresh,
  });
}

export function useMarkRead() {
  const refresh = useRefreshAlerts();
  return useMutation({
    mutationFn: (id: number) =>
      apiCall('console.alerts.notificationReads.create', { params: { notification_id: String(id) } }),
    onSuccess: refresh,
  });
}

export function useAcknowledge() {
  const refresh = useRefreshAlerts();
  return useMutation({
    mutationFn: (id: number) =>
      apiCall('console.alerts.acknowledgements.create', { params: { notification_id: String(id) } }),
    onSuccess: refresh,
  });
}

export function useMarkAllRead() {
  const refresh = useRefreshAlerts();
  return useMutation({
    mutationFn: () => apiCall('console.alerts.notificationReads.apply'),
    onSuccess: refresh,
  });
}

export function useCreateWebhook() {
  const refresh = useRefreshAlerts();
  return useMutation({
    mutationFn: (body: WebhookBody) => apiCall('console.alerts.webhooks.create', { body }),
    onSuccess: refresh,
  });
}

export function useDeleteWebhook() {
  const refresh = useRefreshAlerts();
  return useMutation({
    mutationFn: (id: string) => apiCall('console.alerts.webhooks.delete', { params: { destination_id: id } }),
    onSuccess: refresh,
  });
}
