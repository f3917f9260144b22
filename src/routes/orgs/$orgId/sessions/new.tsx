import { createFileRoute } from '@tanstack/react-router';
import { CreateSessionForm } from '@/features/sessions/create-session-form';

export const Route = createFileRoute('/orgs/$orgId/sessions/new')({
  component: function NewSessionRoute() {
    const { orgId } = Route.useParams();
    return <CreateSessionForm orgId={orgId} />;
  },
});
