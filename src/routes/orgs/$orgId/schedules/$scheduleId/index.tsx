import { createFileRoute } from '@tanstack/react-router';
import { NotFound } from '@/app/shell/route-error';
import { loadSchedule } from '@/features/schedules/api';
import { ScheduleView } from '@/features/schedules/schedule-view';

export const Route = createFileRoute('/orgs/$orgId/schedules/$scheduleId/')({
  loader: ({ context, params }) => loadSchedule(context.queryClient, params.orgId, params.scheduleId),
  notFoundComponent: () => <NotFound what="Schedule not found" />,
  component: function ScheduleRoute() {
    const { orgId, scheduleId } = Route.useParams();
    return <ScheduleView orgId={orgId} scheduleId={scheduleId} />;
  },
});
