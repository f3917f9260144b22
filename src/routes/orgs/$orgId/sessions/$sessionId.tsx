import { createFileRoute, notFound } from '@tanstack/react-router';
import { isApiError } from '@/lib/api-error';
import { sessionQueryOptions } from '@/features/sessions/api';
import { SessionDetail } from '@/features/sessions/session-detail';
import { NotFound } from '@/app/shell/route-error';

export const Route = createFileRoute('/orgs/$orgId/sessions/$sessionId')({
  loader: async ({ context, params }) => {
    try {
      await context.queryClient.query(sessionQueryOptions(params.orgId, params.sessionId));
    } catch (err) {
      if (isApiError(err) && err.status === 404) throw notFound();
      throw err;
    }
  },
  notFoundComponent: () => <NotFound what="Session not found" />,
  component: function SessionRoute() {
    const { orgId, sessionId } = Route.useParams();
    return <SessionDetail key={sessionId} orgId={orgId} sessionId={sessionId} />;
  },
});
