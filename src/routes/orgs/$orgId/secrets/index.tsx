import { createFileRoute } from '@tanstack/react-router';
import { secretsInfiniteQueryOptions } from '@/features/secrets/api';
import { SecretsScreen } from '@/features/secrets/secrets-screen';

export const Route = createFileRoute('/orgs/$orgId/secrets/')({
  loader: ({ context, params }) => {
    void context.queryClient.infiniteQuery(secretsInfiniteQueryOptions(params.orgId)).catch(() => undefined);
  },
  component: function OrgSecretsRoute() {
    const { orgId } = Route.useParams();
    return <SecretsScreen key={orgId} orgId={orgId} />;
  },
});
