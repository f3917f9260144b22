import { createFileRoute } from '@tanstack/react-router';
import { OrganizationOverview } from '@/features/organizations/organization-overview';
import { OrgUsagePanel } from '@/features/usage/org-usage-panel';

export const Route = createFileRoute('/orgs/$orgId/')({
  component: function OrganizationRoute() {
    const { orgId } = Route.useParams();
    return (
      <>
        <OrganizationOverview orgId={orgId} />
        <OrgUsagePanel key={orgId} orgId={orgId} />
      </>
    );
  },
});
