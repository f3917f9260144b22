import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { GitPermissionHistory } from '@/features/git-permissions/history';

const searchSchema = z.object({
  from: z.coerce.number().int().positive().optional().catch(undefined),
  to: z.coerce.number().int().positive().optional().catch(undefined),
});

export const Route = createFileRoute('/orgs/$orgId/git-permissions/history/')({
  validateSearch: searchSchema,
  component: function GitPermissionHistoryRoute() {
    const { orgId } = Route.useParams();
    const { from, to } = Route.useSearch();
    return <GitPermissionHistory key={`${from}-${to}`} orgId={orgId} from={from} to={to} />;
  },
});
