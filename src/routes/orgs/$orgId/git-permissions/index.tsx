import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { gitConnectionsQueryOptions, gitPermissionsInfiniteQueryOptions } from '@/features/git-permissions/api';
import { GitPermissionsTable } from '@/features/git-permissions/permissions-table';

const searchSchema = z.object({
  q: z.string().max(200).catch('').default(''),
  sort: z.enum(['matcher', 'type', 'connection', 'read_only', 'created_at']).catch('created_at').default('created_at'),
  dir: z.enum(['asc', 'desc']).catch('asc').default('asc'),
  access: z.enum(['all', 'read_only', 'read_write']).catch('all').default('all'),
});

export const Route = createFileRoute('/orgs/$orgId/git-permissions/')({
  validateSearch: searchSchema,
  loader: ({ context, params }) => {
    // Start the first page and the connection names; the screen loads the remaining pages with progress.
    void context.queryClient.infiniteQuery(gitPermissionsInfiniteQueryOptions(params.orgId)).catch(() => undefined);
    void context.queryClient.query(gitConnectionsQueryOptions()).catch(() => undefined);
  },
  component: function GitPermissionsRoute() {
    const { orgId } = Route.useParams();
    const search = Route.useSearch();
    return <GitPermissionsTable orgId={orgId} search={search} />;
  },
});
