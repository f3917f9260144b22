/**
 * The violations table's columns: when, the guardrail, the organization (enterprise-wide), the action taken,
 * the confidence as a bar, the triggering message (expandable, with the reasoning) and a link to the session.
 */
import { Link } from '@tanstack/react-router';
import type { GuardrailViolation } from '@/api/operations/guardrails';
import { Badge, type Tone } from '@/components/badge';
import { columnHelper, exactTimeColumn } from '@/components/data-table';
import { cn } from '@/lib/cn';
import { ENTERPRISE, type ViolationScope } from './api';
import { ACTION_LABELS } from './search';

const ACTION_TONES: Record<string, Tone> = {
  log_only: 'neutral',
  warn_user: 'warn',
  block_message: 'accent',
  kill_session: 'danger',
};

function ConfidenceBar({ value }: { value: number }) {
  const pct = Math.round(Math.max(0, Math.min(1, value)) * 100);
  return (
    <span className="flex items-center gap-2" title={`Confidence ${value}`}>
      <span className="h-2 w-16 shrink-0 overflow-hidden rounded-full bg-surface-2" aria-hidden>
        <span
          className={cn('block h-full rounded-full', pct >= 80 ? 'bg-danger' : pct >= 50 ? 'bg-warn' : 'bg-muted')}
          style={{ width: `${pct}%` }}
        />
      </span>
      <span className="text-xs tabular-nums">{pct}%</span>
    </span>
  );
}

const col = columnHelper<GuardrailViolation>();

export function violationColumns(scope: ViolationScope, orgNames: ReadonlyMap<string, string>) {
  return col.columns([
    col.accessor('created_at', {
      header: 'Time',
      ...exactTimeColumn((v: GuardrailViolation) => v.created_at, {
        width: 'minmax(12.5rem,1fr)',
        className: 'text-xs tabular-nums',
      }),
    }),
    col.accessor('guardrail_name', {
      header: 'Guardrail',
      meta: { width: 'minmax(10rem,1.2fr)' },
      cell: ({ row: { original: v } }) => (
        <span className="flex min-w-0 flex-col">
          <span className="truncate font-medium">{v.guardrail_name}</span>
          {v.guardrail_type && <span className="truncate font-mono text-xs text-muted">{v.guardrail_type}</span>}
        </span>
      ),
    }),
    ...(scope === ENTERPRISE
      ? [
          col.accessor((v) => orgNames.get(v.org_id) ?? v.org_id, {
            id: 'organization',
            header: 'Organization',
            meta: { width: 'minmax(8rem,1fr)', className: 'truncate text-xs' },
          }),
        ]
      : []),
    col.accessor('action_taken', {
      header: 'Action',
      meta: { width: '9.5rem' },
      cell: ({ getValue }) => (
        <Badge
          tone={ACTION_TONES[getValue()] ?? 'neutral'}
          title={(ACTION_LABELS as Record<string, string | undefined>)[getValue()] ?? getValue()}
        >
          {getValue()}
        </Badge>
      ),
    }),
    col.accessor('confidence_score', {
      header: 'Confidence',
      meta: { width: '8rem' },
      cell: ({ getValue }) => <ConfidenceBar value={getValue()} />,
    }),
    col.accessor('user_message', {
      header: 'Triggering message',
      meta: { width: 'minmax(14rem,3fr)', className: 'min-w-0' },
      cell: ({ row: { original: v } }) => (
        <details className="group min-w-0 text-sm">
          <summary className="cursor-pointer truncate rounded outline-offset-2 group-open:whitespace-normal">
            <span className="sr-only">Triggering message: </span>
            {v.user_message}
          </summary>
          <div className="mt-1 flex flex-col gap-1 rounded-md bg-surface-2 p-2 text-xs">
            <p className="break-words whitespace-pre-wrap">{v.user_message}</p>
            <p>
              <span className="font-semibold">Reasoning:</span> {v.reasoning}
            </p>
            <p className="font-mono text-muted">
              event {v.event_id} · violation {v.violation_id}
            </p>
          </div>
        </details>
      ),
    }),
    col.display({
      id: 'session',
      header: 'Session',
      meta: { width: 'minmax(9rem,1fr)', className: 'truncate' },
      cell: ({ row: { original: v } }) =>
        v.session_id ? (
          <Link
            to="/orgs/$orgId/sessions/$sessionId"
            params={{ orgId: v.org_id, sessionId: v.session_id }}
            className="font-mono text-xs text-accent underline underline-offset-2 hover:no-underline"
            aria-label={`Open session ${v.session_id}`}
            data-row-link
          >
            {v.session_id}
          </Link>
        ) : (
          <span className="text-muted">—</span>
        ),
    }),
  ]);
}
