import { createFileRoute } from '@tanstack/react-router';
import { GitPermissionHistory } from '@/features/git-permissions/history';
import { gitPermissionHistorySearch } from '../../../../-search';

export const Route = createFileRoute('/orgs/$orgId/git-permissions/history/')({
  validateSearch: gitPermissionHistorySearch,
  component: function GitPermissionHistoryRoute() {
    const { orgId } = Route.useParams();
    const { from, to } = Route.useSearch();
    return <GitPermissionHistory key={`${from}-${to}`} orgId={orgId} from={from} to={to} />;
  },
});
