import { createFileRoute } from '@tanstack/react-router';
import { gitConnectionsInfiniteQueryOptions } from '@/features/git-connections/api';
import { GitConnectionsScreen } from '@/features/git-connections/git-connections-screen';

export const Route = createFileRoute('/git-connections/')({
  loader: ({ context }) =>
    void context.queryClient.infiniteQuery(gitConnectionsInfiniteQueryOptions()).catch(() => undefined),
  component: GitConnectionsScreen,
});
