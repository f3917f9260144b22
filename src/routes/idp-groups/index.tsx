import { createFileRoute } from '@tanstack/react-router';
import { idpGroupEnterpriseRolesQueryOptions, idpGroupsInfiniteQueryOptions } from '@/features/members/api';
import { IdpGroupsScreen } from '@/features/members/idp-groups-screen';

export const Route = createFileRoute('/idp-groups/')({
  loader: ({ context }) => {
    const qc = context.queryClient;
    void qc.infiniteQuery(idpGroupsInfiniteQueryOptions()).catch(() => undefined);
    // The groups' enterprise roles come from the role-mapping list, read beside the groups.
    void qc.query(idpGroupEnterpriseRolesQueryOptions()).catch(() => undefined);
  },
  component: IdpGroupsScreen,
});
