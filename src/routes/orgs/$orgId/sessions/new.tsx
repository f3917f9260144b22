import { createFileRoute } from '@tanstack/react-router';
import { playbookChoicesQueryOptions, usePlaybookOptions } from '@/features/playbooks/api';
import { CreateSessionForm } from '@/features/sessions/create-session-form';
import { NewSessionSearch } from '@/features/sessions/search';

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
