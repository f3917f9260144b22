import { createFileRoute } from '@tanstack/react-router';
import { GitPermissionHistory } from '@/features/git-permissions/history';
import { GitPermissionHistorySearch } from '@/features/git-permissions/search';

export const Route = createFileRoute('/orgs/$orgId/git-permissions/history/')({
  validateSearch: GitPermissionHistorySearch,
  component: function GitPermissionHistoryRoute() {
    const { orgId } = Route.useParams();
    const { from, to } = Route.useSearch();
    return <GitPermissionHistory key={`${from}-${to}`} orgId={orgId} from={from} to={to} />;
  },
});
