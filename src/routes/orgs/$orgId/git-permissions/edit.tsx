import { createFileRoute } from '@tanstack/react-router';
import { gitConnectionsQueryOptions } from '@/features/git-permissions/api';
import { BulkEditor } from '@/features/git-permissions/bulk-editor';

export const Route = createFileRoute('/orgs/$orgId/git-permissions/edit')({
  loader: ({ context }) => {
    void context.queryClient.query(gitConnectionsQueryOptions()).catch(() => undefined);
  },
  component: function GitPermissionsEditRoute() {
    const { orgId } = Route.useParams();
    return <BulkEditor orgId={orgId} />;
  },
});
