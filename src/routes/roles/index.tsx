import { createFileRoute } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { idpGroupKeys, memberKeys, rolesQueryOptions, serviceUserKeys } from '@/features/members/api';
import { RolesScreen } from '@/features/members/roles-screen';
import { SettingsHistory } from '@/features/organizations/settings-history';
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
        history={<RolesHistory />}
      />
    );
  },
});

/** Every role given, changed or taken away through the console: members, service users and IdP groups. */
function RolesHistory() {
  const qc = useQueryClient();
  return (
    <SettingsHistory
      title="History of role changes"
      description="The roles of members, service users and IdP groups as changed through this console, newest first, with who made each change. A change made elsewhere shows as “Changed outside the console”."
      filter={{ kind: ['roles', 'idp-group-roles'] }}
      onRestored={() =>
        Promise.all(
          [memberKeys.all, serviceUserKeys.all, idpGroupKeys.all].map((queryKey) => qc.invalidateQueries({ queryKey })),
        )
      }
    />
  );
}
