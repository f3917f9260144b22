import { createFileRoute } from '@tanstack/react-router';
import { NotFound } from '@/app/shell/route-error';
import { loadPlaybook } from '@/features/playbooks/api';
import { PlaybookView } from '@/features/playbooks/playbook-view';

export const Route = createFileRoute('/orgs/$orgId/playbooks/$playbookId/')({
  loader: ({ context, params }) =>
    loadPlaybook(context.queryClient, { kind: 'org', orgId: params.orgId }, params.playbookId),
  notFoundComponent: () => <NotFound what="Playbook not found" />,
  component: function OrgPlaybookRoute() {
    const { orgId, playbookId } = Route.useParams();
    return <PlaybookView scope={{ kind: 'org', orgId }} playbookId={playbookId} />;
  },
});
