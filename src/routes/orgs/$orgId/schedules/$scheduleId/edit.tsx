import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { NotFound } from '@/app/shell/route-error';
import { playbookChoicesQueryOptions, usePlaybookOptions } from '@/features/playbooks/api';
import { loadSchedule, scheduleQueryOptions } from '@/features/schedules/api';
import { ScheduleForm } from '@/features/schedules/schedule-form';

export const Route = createFileRoute('/orgs/$orgId/schedules/$scheduleId/edit')({
  loader: async ({ context, params }) => {
    void context.queryClient.query(playbookChoicesQueryOptions(params.orgId)).catch(() => undefined);
    await loadSchedule(context.queryClient, params.orgId, params.scheduleId);
  },
  notFoundComponent: () => <NotFound what="Schedule not found" />,
  component: function EditScheduleRoute() {
    const { orgId, scheduleId } = Route.useParams();
    const { data } = useSuspenseQuery(scheduleQueryOptions(orgId, scheduleId));
    const options = usePlaybookOptions(orgId);
    return <ScheduleForm key={data.updated_at} orgId={orgId} schedule={data} playbookOptions={options} />;
  },
});
