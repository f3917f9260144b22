import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { NotFound } from '@/app/shell/route-error';
import { loadPlaybook, playbookQueryOptions, type PlaybookScope } from '@/features/playbooks/api';
import { PlaybookForm } from '@/features/playbooks/playbook-form';

const scope: PlaybookScope = { kind: 'enterprise' };

export const Route = createFileRoute('/playbooks/$playbookId/edit')({
  loader: ({ context, params }) => loadPlaybook(context.queryClient, scope, params.playbookId),
  notFoundComponent: () => <NotFound what="Playbook not found" />,
  component: function EditEnterprisePlaybookRoute() {
    const { playbookId } = Route.useParams();
    const { data } = useSuspenseQuery(playbookQueryOptions(scope, playbookId));
    return <PlaybookForm key={data.playbook_id} scope={scope} playbook={data} />;
  },
});
