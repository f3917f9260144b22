import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { schedulesInfiniteQueryOptions } from '@/features/schedules/api';
import { SchedulesScreen } from '@/features/schedules/schedules-screen';
import { organizationQueryOptions } from '@/lib/organizations';

export const Route = createFileRoute('/orgs/$orgId/schedules/')({
  loader: ({ context, params }) =>
    void context.queryClient.infiniteQuery(schedulesInfiniteQueryOptions(params.orgId)).catch(() => undefined),
  component: function SchedulesRoute() {
    const { orgId } = Route.useParams();
    const org = useQuery(organizationQueryOptions(orgId));
    return <SchedulesScreen orgId={orgId} subtitle={org.data?.name} />;
  },
});
