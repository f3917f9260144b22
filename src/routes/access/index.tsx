import { createFileRoute } from '@tanstack/react-router';
import { everyServiceUserQueryOptions, everyUserQueryOptions, rolesQueryOptions } from '@/features/members/api';
import { AccessScreen } from '@/features/members/access-screen';
import { clean } from '@/features/members/search';
import { accessSearch } from '../-search';

export const Route = createFileRoute('/access/')({
  validateSearch: accessSearch,
  loader: ({ context }) => {
    const qc = context.queryClient;
    void qc.query(everyUserQueryOptions()).catch(() => undefined);
    void qc.query(everyServiceUserQueryOptions()).catch(() => undefined);
    void qc.query(rolesQueryOptions()).catch(() => undefined);
  },
  component: function AccessRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <AccessScreen search={search} onSearchChange={(next) => void navigate({ search: clean(next) })} />;
  },
});
