import { createFileRoute } from '@tanstack/react-router';
import { ConfigurationScreen } from '@/features/configuration/configuration-screen';
import { revisionsInfiniteQueryOptions } from '@/features/configuration/api';

export const Route = createFileRoute('/settings/configuration')({
  loader: ({ context }) => {
    void context.queryClient.infiniteQuery(revisionsInfiniteQueryOptions()).catch(() => undefined);
  },
  component: ConfigurationScreen,
});
