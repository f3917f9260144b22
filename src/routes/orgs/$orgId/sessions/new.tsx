import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { playbookChoicesQueryOptions, usePlaybookOptions } from '@/features/playbooks/api';
import { CreateSessionForm } from '@/features/sessions/create-session-form';

/** `playbook`: the playbook chosen when the form opens ("Start a session with this playbook"). */
const NewSessionSearch = z.object({ playbook: z.string().min(1).max(200).optional().catch(undefined) });

export const Route = createFileRoute('/orgs/$orgId/sessions/new')({
  validateSearch: NewSessionSearch,
  loader: ({ context, params }) =>
    void context.queryClient.query(playbookChoicesQueryOptions(params.orgId)).catch(() => undefined),
  component: function NewSessionRoute() {
    const { orgId } = Route.useParams();
    const { playbook } = Route.useSearch();
    const options = usePlaybookOptions(orgId, playbook);
    return <CreateSessionForm key={playbook ?? ''} orgId={orgId} playbookId={playbook} playbookOptions={options} />;
  },
});
