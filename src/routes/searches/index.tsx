import { createFileRoute } from '@tanstack/react-router';
import { searchesInfiniteQueryOptions } from '@/features/searches/api';
import { SearchesScreen } from '@/features/searches/searches-screen';

const scope = { kind: 'enterprise' } as const;

export const Route = createFileRoute('/searches/')({
  loader: ({ context }) =>
    void context.queryClient.infiniteQuery(searchesInfiniteQueryOptions(scope)).catch(() => undefined),
  component: function SearchesRoute() {
    return <SearchesScreen scope={scope} />;
  },
});
