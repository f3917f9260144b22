import { createFileRoute, notFound } from '@tanstack/react-router';
import { GitPermissionRevisionView } from '@/features/git-permissions/history';
import { NotFound } from '@/app/shell/route-error';

export const Route = createFileRoute('/orgs/$orgId/git-permissions/history/$revisionId')({
  loader: ({ params }) => {
    if (!/^\d{1,12}$/.test(params.revisionId)) throw notFound();
  },
  notFoundComponent: () => <NotFound what="Revision not found" />,
  component: function GitPermissionRevisionRoute() {
    const { orgId, revisionId } = Route.useParams();
    return <GitPermissionRevisionView orgId={orgId} revisionId={Number(revisionId)} />;
  },
});
