/**
 * The audit-log table's columns (time, action, principal, organization, a preview of the data, details) and
 * what they read an entry as: who acted on one line, a one-line preview of its data, the principals the loaded
 * entries name (for the Principal filter).
 */
import type { ActivityEntry } from '@/api/console/activity';
import type { AuditLogEntry } from '@/api/operations/audit-logs';
import { Badge, type Tone } from '@/components/badge';
import { columnHelper, exactTimeColumn } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { personLabel } from './console-people';

/** A one-line preview of `data`: its first few scalar fields. */
export function summarizeData(data: Record<string, unknown> | null | undefined): string {
  if (!data) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(data)) {
    if (v === null || typeof v === 'object') continue;
    parts.push(`${k}: ${String(v)}`);
    if (parts.length === 3) break;
  }
  return parts.join(' · ');
}

export interface PrincipalOption {
  value: string;
  label: string;
}

export function collectPrincipals(items: readonly AuditLogEntry[], current: string): PrincipalOption[] {
  const map = new Map<string, string>();
  for (const e of items) {
    if (e.service_user_id && !map.has(`service_user:${e.service_user_id}`)) {
      map.set(`service_user:${e.service_user_id}`, `${e.service_user_name || e.service_user_id} (service user)`);
    }
    if (e.user_id && !map.has(`user:${e.user_id}`)) map.set(`user:${e.user_id}`, `${e.user_email || e.user_id} (user)`);
  }
  if (current && !map.has(current))
    map.set(current, current.replace(/^service_user:/, 'service user ').replace(/^user:/, 'user '));
  return [...map].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
}

/** Who acted, on one line: the user, the service user, both ("user via service user"), or the system. */
export function principalLabel(e: AuditLogEntry): string {
  const user = e.user_id ? e.user_email || e.user_id : '';
  const service = e.service_user_id ? e.service_user_name || e.service_user_id : '';
  if (user && service) return `${user} via ${service}`;
  return user || service || 'System';
}

function actionTone(action: string): Tone {
  if (action.startsWith('delete') || action.startsWith('reject') || action.startsWith('terminate')) return 'danger';
  return action.startsWith('create') ? 'success' : 'neutral';
}

const col = columnHelper<AuditLogEntry>();

export function entryColumns(
  orgNames: ReadonlyMap<string, string>,
  open: (e: AuditLogEntry) => void,
  people: ReadonlyMap<string, ActivityEntry>,
) {
  return col.columns([
    col.accessor('created_at', {
      header: 'Time',
      // The API orders by time (`order`): the header sorts through the URL.
      ...exactTimeColumn((e: AuditLogEntry) => e.created_at, {
        width: 'minmax(13rem,1.2fr)',
        className: 'truncate tabular-nums',
      }),
    }),
    col.accessor('action', {
      header: 'Action',
      meta: { width: 'minmax(10rem,1fr)', className: 'truncate' },
      cell: ({ getValue }) => <Badge tone={actionTone(getValue())}>{getValue()}</Badge>,
    }),
    col.display({
      id: 'principal',
      header: 'Principal',
      meta: { width: 'minmax(11rem,1.3fr)', className: 'truncate' },
      cell: ({ row: { original: e } }) => {
        const person = people.get(e.audit_log_id);
        // Beside the console's activity: the person whose write it was, then the credential the console used.
        if (person) {
          return (
            <span
              title={`Made through the console by ${personLabel(person)} (${person.operation_id}); the API saw ${principalLabel(e)}`}
            >
              <span className="font-medium">{personLabel(person)}</span>
              <span className="text-muted"> via {principalLabel(e)}</span>
            </span>
          );
        }
        return <span className={cn(!e.user_id && !e.service_user_id && 'text-muted')}>{principalLabel(e)}</span>;
      },
    }),
    col.display({
      id: 'organization',
      header: 'Organization',
      meta: { width: 'minmax(9rem,1fr)', className: 'truncate' },
      cell: ({ row: { original: e } }) =>
        e.org_id ? (orgNames.get(e.org_id) ?? e.org_id) : <span className="text-muted">Enterprise</span>,
    }),
    col.display({
      id: 'data',
      header: 'Data',
      meta: { width: 'minmax(12rem,2fr)', className: 'truncate font-mono text-xs text-muted' },
      cell: ({ row }) => summarizeData(row.original.data),
    }),
    col.display({
      id: 'details',
      header: () => <span className="sr-only">Details</span>,
      enableHiding: false,
      meta: { width: '5rem', label: 'Details' },
      cell: ({ row: { original: e } }) => (
        <Button
          size="sm"
          variant="ghost"
          onClick={() => open(e)}
          aria-label={`Details of ${e.action} at ${formatDateTime(e.created_at)}`}
        >
          Details
        </Button>
      ),
    }),
  ]);
}
