import { createFileRoute } from '@tanstack/react-router';
import { cyclesQueryOptions } from '@/features/usage/api';
import { PeopleSearch } from '@/features/usage/people-search';
import { PeopleConsumptionScreen } from '@/features/usage/people-screen';

export const Route = createFileRoute('/usage/people')({
  validateSearch: PeopleSearch,
  loader: ({ context }) => {
    void context.queryClient.query(cyclesQueryOptions()).catch(() => undefined);
  },
  component: function UsagePeopleRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <PeopleConsumptionScreen
        kind={search.kind ?? 'all'}
        onKindChange={(kind) => void navigate({ search: kind === 'all' ? {} : { kind } })}
      />
    );
  },
});
