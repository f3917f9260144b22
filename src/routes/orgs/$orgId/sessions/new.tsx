import { createFileRoute } from '@tanstack/react-router';
import { playbookChoicesQueryOptions, usePlaybookOptions } from '@/features/playbooks/api';
import { CreateSessionForm } from '@/features/sessions/create-session-form';
import { newSessionSearch } from '../../../-search';

export const Route = createFileRoute('/orgs/$orgId/sessions/new')({
  validateSearch: newSessionSearch,
  loader: ({ context, params }) =>
    void context.queryClient.query(playbookChoicesQueryOptions(params.orgId)).catch(() => undefined),
  component: function NewSessionRoute() {
    const { orgId } = Route.useParams();
    const { playbook } = Route.useSearch();
    const options = usePlaybookOptions(orgId, playbook);
    return <CreateSessionForm key={playbook ?? ''} orgId={orgId} playbookId={playbook} playbookOptions={options} />;
  },
});
