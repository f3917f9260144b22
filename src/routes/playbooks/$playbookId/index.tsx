import { createFileRoute } from '@tanstack/react-router';
import { NotFound } from '@/app/shell/route-error';
import { loadPlaybook, type PlaybookScope } from '@/features/playbooks/api';
import { PlaybookView } from '@/features/playbooks/playbook-view';

const scope: PlaybookScope = { kind: 'enterprise' };

export const Route = createFileRoute('/playbooks/$playbookId/')({
  loader: ({ context, params }) => loadPlaybook(context.queryClient, scope, params.playbookId),
  notFoundComponent: () => <NotFound what="Playbook not found" />,
  component: function EnterprisePlaybookRoute() {
    const { playbookId } = Route.useParams();
    return <PlaybookView scope={scope} playbookId={playbookId} />;
  },
});
