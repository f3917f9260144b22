import { createFileRoute } from '@tanstack/react-router';
import { everyServiceUserQueryOptions, everyUserQueryOptions, rolesQueryOptions } from '@/features/members/api';
import { AccessScreen } from '@/features/members/access-screen';
import { AccessSearch } from '@/features/members/route-search';
import { clean } from '@/features/members/search';

export const Route = createFileRoute('/access/')({
  validateSearch: AccessSearch,
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
