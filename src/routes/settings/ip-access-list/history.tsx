import { createFileRoute } from '@tanstack/react-router';
import { ipRevisionsInfiniteQueryOptions } from '@/features/ip-access-list/api';
import { IpAccessListHistoryScreen } from '@/features/ip-access-list/history-screen';

export const Route = createFileRoute('/settings/ip-access-list/history')({
  loader: ({ context }) =>
    void context.queryClient.infiniteQuery(ipRevisionsInfiniteQueryOptions()).catch(() => undefined),
  component: IpAccessListHistoryScreen,
});
