import { createFileRoute } from '@tanstack/react-router';
import { idpGroupsInfiniteQueryOptions } from '@/features/members/api';
import { IdpGroupsScreen } from '@/features/members/idp-groups-screen';

export const Route = createFileRoute('/idp-groups/')({
  loader: ({ context }) =>
    void context.queryClient.infiniteQuery(idpGroupsInfiniteQueryOptions()).catch(() => undefined),
  component: IdpGroupsScreen,
});
