import { useSuspenseQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { NotFound } from '@/app/shell/route-error';
import { loadPlaybook, playbookQueryOptions } from '@/features/playbooks/api';
import { PlaybookForm } from '@/features/playbooks/playbook-form';

export const Route = createFileRoute('/orgs/$orgId/playbooks/$playbookId/edit')({
  loader: ({ context, params }) =>
    loadPlaybook(context.queryClient, { kind: 'org', orgId: params.orgId }, params.playbookId),
  notFoundComponent: () => <NotFound what="Playbook not found" />,
  component: function EditOrgPlaybookRoute() {
    const { orgId, playbookId } = Route.useParams();
    const scope = { kind: 'org', orgId } as const;
    const { data } = useSuspenseQuery(playbookQueryOptions(scope, playbookId));
    return <PlaybookForm key={data.playbook_id} scope={scope} playbook={data} />;
  },
});
