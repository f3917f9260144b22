/**
 * The findings table's columns: severity, the finding (a link to its page), repository, organization, status,
 * its remediation (with the live status of the remediation session) and when it was found.
 */
import { Link } from '@tanstack/react-router';
import type { CodeScanFinding } from '@/api/operations/code-scans';
import { columnHelper, timeColumn } from '@/components/data-table';
import { organizationColumn } from '@/components/organization-names';
import type { LiveSession } from './api';
import { FindingStatusBadge, RemediationStatus, SeverityBadge } from './parts';

const col = columnHelper<CodeScanFinding>();

export function findingColumns(orgNames: ReadonlyMap<string, string>, live: ReadonlyMap<string, LiveSession>) {
  return col.columns([
    col.accessor('severity', {
      header: 'Severity',
      meta: { width: '6.5rem' },
      cell: ({ getValue }) => <SeverityBadge severity={getValue()} />,
    }),
    col.accessor('title', {
      header: 'Finding',
      enableHiding: false,
      meta: { width: 'minmax(14rem,3fr)' },
      cell: ({ row: { original: f } }) => (
        <span className="flex min-w-0 flex-col">
          <Link
            to="/code-scans/$findingId"
            params={{ findingId: f.finding_id }}
            className="truncate font-medium text-accent underline underline-offset-2 hover:no-underline"
            title={f.title}
            data-row-link
          >
            {f.title}
          </Link>
          <span className="truncate font-mono text-xs text-muted">
            {f.category} · {f.finding_id}
          </span>
        </span>
      ),
    }),
    col.accessor('repository', {
      header: 'Repository',
      meta: { width: 'minmax(9rem,1.2fr)', className: 'truncate font-mono text-xs' },
    }),
    organizationColumn<CodeScanFinding>(orgNames),
    col.accessor('status', {
      header: 'Status',
      meta: { width: '6.5rem' },
      cell: ({ getValue }) => <FindingStatusBadge status={getValue()} />,
    }),
    col.display({
      id: 'remediation',
      header: 'Remediation',
      meta: { width: 'minmax(14rem,2fr)' },
      cell: ({ row: { original: f } }) => (
        <RemediationStatus
          finding={f}
          live={f.remediation_session_id ? live.get(f.remediation_session_id) : undefined}
        />
      ),
    }),
    col.accessor('created_at', { header: 'Found', ...timeColumn() }),
  ]);
}
