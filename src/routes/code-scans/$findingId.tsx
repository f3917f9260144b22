import { createFileRoute, notFound } from '@tanstack/react-router';
import { NotFound } from '@/app/shell/route-error';
import { findingQueryOptions } from '@/features/code-scans/api';
import { FindingDetail } from '@/features/code-scans/finding-detail';
import { isApiError } from '@/lib/api-error';

export const Route = createFileRoute('/code-scans/$findingId')({
  loader: async ({ context, params }) => {
    try {
      await context.queryClient.query(findingQueryOptions(params.findingId));
    } catch (err) {
      if (isApiError(err) && err.status === 404) throw notFound();
      throw err;
    }
  },
  notFoundComponent: () => <NotFound what="Finding not found" />,
  component: function FindingRoute() {
    const { findingId } = Route.useParams();
    return <FindingDetail key={findingId} findingId={findingId} />;
  },
});
