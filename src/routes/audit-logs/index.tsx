import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { auditLogsInfiniteQueryOptions } from '@/features/audit-logs/api';
import { AuditLogsExplorer } from '@/features/audit-logs/audit-logs-explorer';
import { AuditLogSearch } from '@/features/audit-logs/route-search';
import { toUrlSearch } from '@/features/audit-logs/search';

export const Route = createFileRoute('/audit-logs/')({
  validateSearch: AuditLogSearch,
  search: { middlewares: [stripSearchParams(AuditLogSearch.defaults)] },
  loaderDeps: ({ search }) => AuditLogSearch.filters(search),
  loader: ({ context, deps }) =>
    void context.queryClient.infiniteQuery(auditLogsInfiniteQueryOptions(deps)).catch(() => undefined),
  component: function AuditLogsRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return (
      <AuditLogsExplorer
        search={search}
        onSearchChange={(patch) =>
          void navigate({ search: (prev: AuditLogSearch) => toUrlSearch({ ...prev, ...patch }) })
        }
      />
    );
  },
});
