/**
 * The Configuration screen's table columns: a planned or drifted change (the plan and the drift tables show the
 * same columns) and an applied revision of the history.
 */
import { CONFIG_RESOURCE_LABELS, type ConfigChange, type ConfigRevisionSummary } from '@/api/console/configuration';
import { columnHelper, timeColumn } from '@/components/data-table';

const changeCol = columnHelper<ConfigChange>();
export const changeColumns = changeCol.columns([
  changeCol.accessor((c) => c.organization ?? (c.kind === 'organization' ? c.key : 'Enterprise'), {
    id: 'organization',
    header: 'Organization',
  }),
  changeCol.accessor((c) => CONFIG_RESOURCE_LABELS[c.kind], { id: 'resource', header: 'Resource' }),
  changeCol.accessor('key', { header: 'Name' }),
  changeCol.accessor('action', {
    header: 'Change',
    cell: (info) => (
      <span className={info.row.original.destructive ? 'font-medium text-danger' : undefined}>
        {info.getValue()}
        {info.row.original.destructive ? ' (destructive)' : ''}
      </span>
    ),
  }),
  changeCol.accessor('summary', { header: 'What changes' }),
]);

const revCol = columnHelper<ConfigRevisionSummary>();
export const revisionColumns = revCol.columns([
  revCol.accessor('revision_id', { header: 'Revision' }),
  revCol.accessor('created_at', { header: 'When', ...timeColumn({ width: '7rem' }) }),
  revCol.accessor((r) => (r.kind === 'export' ? 'Live state recorded' : 'Apply'), { id: 'kind', header: 'What' }),
  revCol.accessor('status', { header: 'Status' }),
  revCol.accessor((r) => `${r.counts.create} created, ${r.counts.update} updated, ${r.counts.delete} deleted`, {
    id: 'counts',
    header: 'Plan',
  }),
  revCol.accessor((r) => r.made_by ?? 'unknown', { id: 'made_by', header: 'By' }),
]);
