import { createFileRoute } from '@tanstack/react-router';
import { OrganizationOverview } from '@/features/organizations/organization-overview';

export const Route = createFileRoute('/orgs/$orgId/')({
  component: function OrganizationRoute() {
    const { orgId } = Route.useParams();
    return <OrganizationOverview orgId={orgId} />;
  },
});
