import { createFileRoute } from '@tanstack/react-router';
import { notificationsInfiniteQueryOptions } from '@/features/alerts/api';
import { NotificationsScreen } from '@/features/alerts/notifications-screen';

export const Route = createFileRoute('/alerts/')({
  loader: ({ context }) =>
    void context.queryClient.infiniteQuery(notificationsInfiniteQueryOptions(false)).catch(() => undefined),
  component: NotificationsScreen,
});
