/**
 * An organization's secrets: keys, types, notes and who created them — never a value (the API returns none).
 * Create one (the value in a write-only field) and delete one behind a confirmation.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { Lock } from 'lucide-react';
import { useMemo, useState } from 'react';
import { SECRET_TYPE_LABELS, type Secret } from '@/api/operations/secrets';
import { Badge } from '@/components/badge';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { ConfirmDelete, DeleteButton } from '@/components/delete-action';
import { PageHeader } from '@/components/page-header';
import { missingPermissionTitle, useHasPermission } from '@/lib/principal';
import { secretsInfiniteQueryOptions, useDeleteSecret } from './api';
import { CreateSecretButton } from './create-secret';

const col = columnHelper<Secret>();

function TypeBadge({ type }: { type: string }) {
  const label = SECRET_TYPE_LABELS[type as keyof typeof SECRET_TYPE_LABELS] ?? type;
  return <Badge tone={type === 'dictionary' ? 'warn' : 'neutral'}>{label}</Badge>;
}

function secretColumns(opts: {
  canManage: boolean | undefined;
  reason: string | undefined;
  onDelete: (s: Secret) => void;
}) {
  const { canManage, reason, onDelete } = opts;
  return col.columns([
    col.accessor((s) => s.key ?? '', {
      id: 'key',
      header: 'Key',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(12rem,1.4fr)', className: 'flex flex-col' },
      cell: ({ row: { original: s } }) => (
        <>
          <span className="truncate font-mono text-sm font-medium">{s.key ?? '—'}</span>
          <span className="truncate font-mono text-xs text-muted">{s.secret_id}</span>
        </>
      ),
    }),
    col.accessor('secret_type', {
      header: 'Type',
      enableSorting: true,
      meta: { width: '11rem' },
      cell: ({ getValue }) => <TypeBadge type={getValue()} />,
    }),
    col.accessor((s) => s.note ?? '', {
      id: 'note',
      header: 'Note',
      meta: { width: 'minmax(12rem,2fr)', className: 'text-sm', cellTitle: (s: Secret) => s.note ?? undefined },
      cell: ({ getValue }) =>
        getValue() ? <span className="line-clamp-2">{getValue()}</span> : <span className="text-muted">—</span>,
    }),
    col.accessor((s) => (s.is_sensitive ? 'Sensitive' : 'Not sensitive'), {
      id: 'sensitive',
      header: 'Sensitive',
      meta: { width: '8rem', className: 'text-xs' },
      cell: ({ row: { original: s } }) =>
        s.is_sensitive ? (
          <span className="inline-flex items-center gap-1">
            <Lock className="size-3.5" aria-hidden /> Sensitive
          </span>
        ) : (
          <span className="text-muted">Not sensitive</span>
        ),
    }),
    col.accessor((s) => s.created_by_name ?? s.created_by, {
      id: 'created_by',
      header: 'Created by',
      enableSorting: true,
      meta: { width: 'minmax(9rem,1fr)', className: 'flex flex-col' },
      cell: ({ row: { original: s } }) => (
        <>
          <span className="truncate">{s.created_by_name ?? s.created_by}</span>
          {s.created_by_name ? <span className="truncate font-mono text-xs text-muted">{s.created_by}</span> : null}
        </>
      ),
    }),
    col.accessor('created_at', { header: 'Created', ...timeColumn({ width: '7rem' }) }),
    col.display({
      id: 'actions',
      header: 'Actions',
      enableHiding: false,
      meta: { width: '6.5rem', label: 'Actions' },
      cell: ({ row: { original: s } }) => (
        <DeleteButton
          label={`Delete secret ${s.key ?? s.secret_id}`}
          disabled={canManage === false}
          title={reason}
          onClick={() => onDelete(s)}
        />
      ),
    }),
  ]);
}

export function SecretsScreen({ orgId }: { orgId: string }) {
  const canManage = useHasPermission('ManageOrgSecrets');
  const reason = missingPermissionTitle('ManageOrgSecrets', canManage);
  const query = useInfiniteQuery(secretsInfiniteQueryOptions(orgId));
  const [deleting, setDeleting] = useState<Secret | null>(null);
  const remove = useDeleteSecret(orgId);
  const columns = useMemo(() => secretColumns({ canManage, reason, onDelete: setDeleting }), [canManage, reason]);
  const name = deleting?.key ?? deleting?.secret_id ?? 'secret';

  return (
    <>
      <PageHeader
        title="Secrets"
        description="Credentials the agents of this organization use in their sessions. Values are write-only: nobody can read one back, not even here."
        actions={
          <>
            <CreateSecretButton orgId={orgId} disabled={canManage === false} title={reason} />
            {reason ? <span className="text-xs text-muted">{reason}</span> : null}
          </>
        }
      />
      <DataTable
        label="Secrets"
        tableId="org-secrets"
        columns={columns}
        query={query}
        getRowId={(s) => s.secret_id}
        minWidth="58rem"
        estimateRowHeight={56}
        empty={{ title: 'No secrets yet', hint: 'Create one with New secret.' }}
      />
      <ConfirmDelete
        target={deleting}
        onClose={() => setDeleting(null)}
        mutation={remove}
        variables={(t) => t.secret_id}
        title={`Delete secret ${name}?`}
        description="Sessions started from now on can no longer use it. Its value is gone for good: a new secret needs the value again."
        confirmLabel="Delete secret"
        toastTitle={(t) => `Secret ${t.key ?? t.secret_id} deleted`}
      />
    </>
  );
}
