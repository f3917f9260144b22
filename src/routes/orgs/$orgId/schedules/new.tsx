import { createFileRoute } from '@tanstack/react-router';
import { playbookChoicesQueryOptions, usePlaybookOptions } from '@/features/playbooks/api';
import { ScheduleForm } from '@/features/schedules/schedule-form';

export const Route = createFileRoute('/orgs/$orgId/schedules/new')({
  loader: ({ context, params }) =>
    void context.queryClient.query(playbookChoicesQueryOptions(params.orgId)).catch(() => undefined),
  component: function NewScheduleRoute() {
    const { orgId } = Route.useParams();
    return <ScheduleForm orgId={orgId} playbookOptions={usePlaybookOptions(orgId)} />;
  },
});
