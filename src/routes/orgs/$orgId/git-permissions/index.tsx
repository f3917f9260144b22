import { createFileRoute } from '@tanstack/react-router';
import { gitConnectionsQueryOptions, gitPermissionsInfiniteQueryOptions } from '@/features/git-permissions/api';
import { GitPermissionsTable } from '@/features/git-permissions/permissions-table';
import { GitPermissionsSearch } from '@/features/git-permissions/search';

export const Route = createFileRoute('/orgs/$orgId/git-permissions/')({
  validateSearch: GitPermissionsSearch,
  loader: ({ context, params }) => {
    // Start the first page and the connection names; the screen loads the remaining pages with progress.
    void context.queryClient.infiniteQuery(gitPermissionsInfiniteQueryOptions(params.orgId)).catch(() => undefined);
    void context.queryClient.query(gitConnectionsQueryOptions()).catch(() => undefined);
  },
  component: function GitPermissionsRoute() {
    const { orgId } = Route.useParams();
    const search = Route.useSearch();
    return <GitPermissionsTable orgId={orgId} search={search} />;
  },
});
