import { createFileRoute } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { memberKeys } from '@/features/members/api';
import { MemberPage } from '@/features/members/member-page';
import { MemberPageSearch, memberQueryOptions } from '@/features/members/member-search';
import { SettingsHistory } from '@/features/organizations/settings-history';

export const Route = createFileRoute('/members/$userId')({
  validateSearch: MemberPageSearch,
  loaderDeps: ({ search }) => ({ org: search.org }),
  loader: ({ context, params, deps }) =>
    void context.queryClient.query(memberQueryOptions(params.userId, deps.org)).catch(() => undefined),
  component: function MemberRoute() {
    const { userId } = Route.useParams();
    const { org } = Route.useSearch();
    const qc = useQueryClient();
    return (
      <MemberPage
        userId={userId}
        orgId={org}
        history={
          <SettingsHistory
            title="History of this member’s roles"
            filter={{ kind: ['roles'], key_prefix: `user:${userId}@` }}
            onRestored={() => qc.invalidateQueries({ queryKey: memberKeys.all })}
          />
        }
      />
    );
  },
});
