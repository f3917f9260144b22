import { createFileRoute } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  idpGroupEnterpriseRolesQueryOptions,
  idpGroupKeys,
  idpGroupsInfiniteQueryOptions,
  memberKeys,
} from '@/features/members/api';
import { SettingsHistory } from '@/features/organizations/settings-history';
import { IdpGroupsScreen } from '@/features/members/idp-groups-screen';

export const Route = createFileRoute('/idp-groups/')({
  loader: ({ context }) => {
    const qc = context.queryClient;
    void qc.infiniteQuery(idpGroupsInfiniteQueryOptions()).catch(() => undefined);
    // The groups' enterprise roles come from the role-mapping list, read beside the groups.
    void qc.query(idpGroupEnterpriseRolesQueryOptions()).catch(() => undefined);
  },
  component: function IdpGroupsRoute() {
    const qc = useQueryClient();
    return (
      <IdpGroupsScreen
        history={
          <SettingsHistory
            collapsed
            title="History of IdP group roles"
            filter={{ kind: ['idp-group-roles'] }}
            onRestored={() =>
              Promise.all([idpGroupKeys.all, memberKeys.all].map((queryKey) => qc.invalidateQueries({ queryKey })))
            }
          />
        }
      />
    );
  },
});
