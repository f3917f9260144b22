import { createFileRoute, notFound } from '@tanstack/react-router';
import { NotFound } from '@/app/shell/route-error';
import { enterpriseSessionQueryOptions } from '@/features/sessions/api';
import { SessionDetail } from '@/features/sessions/session-detail';
import { isApiError } from '@/lib/api-error';

/** A session of any organization, opened from the enterprise sessions list: read through the enterprise operations. */
export const Route = createFileRoute('/sessions/$sessionId')({
  loader: async ({ context, params }) => {
    try {
      await context.queryClient.query(enterpriseSessionQueryOptions(params.sessionId));
    } catch (err) {
      if (isApiError(err) && err.status === 404) throw notFound();
      throw err;
    }
  },
  notFoundComponent: () => <NotFound what="Session not found" />,
  component: function EnterpriseSessionRoute() {
    const { sessionId } = Route.useParams();
    return <SessionDetail key={sessionId} sessionId={sessionId} scope="enterprise" />;
  },
});
