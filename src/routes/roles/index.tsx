import { createFileRoute } from '@tanstack/react-router';
import { rolesQueryOptions } from '@/features/members/api';
import { RolesScreen } from '@/features/members/roles-screen';
import { RolesSearch } from '@/features/members/route-search';

export const Route = createFileRoute('/roles/')({
  validateSearch: RolesSearch,
  loader: ({ context }) => void context.queryClient.query(rolesQueryOptions()).catch(() => undefined),
  component: function RolesRoute() {
    const { view } = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <RolesScreen
        view={view ?? 'list'}
        onViewChange={(v) => void navigate({ search: v === 'list' ? {} : { view: v } })}
      />
    );
  },
});
