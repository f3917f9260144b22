import { createFileRoute } from '@tanstack/react-router';
import { PlaybookForm } from '@/features/playbooks/playbook-form';

export const Route = createFileRoute('/orgs/$orgId/playbooks/new')({
  component: function NewOrgPlaybookRoute() {
    const { orgId } = Route.useParams();
    return <PlaybookForm scope={{ kind: 'org', orgId }} />;
  },
});
