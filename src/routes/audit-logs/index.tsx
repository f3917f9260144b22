import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { auditLogsInfiniteQueryOptions } from '@/features/audit-logs/api';
import { AuditLogsExplorer } from '@/features/audit-logs/audit-logs-explorer';
import { toUrlSearch, type AuditLogSearch } from '@/features/audit-logs/search';
import { auditLogFilters, auditLogSearch } from '../-search';

export const Route = createFileRoute('/audit-logs/')({
  validateSearch: auditLogSearch,
  // Defaults stay out of the URL, so a shared link shows only the filters someone chose.
  search: { middlewares: [stripSearchParams({ range: 'all', order: 'desc' })] },
  loaderDeps: ({ search }) => auditLogFilters(search),
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
