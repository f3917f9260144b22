/**
 * The Configuration screen: the enterprise's configuration as a document — edit it (errors shown at their
 * lines as one types, from the same reader the console uses), plan it (every change per organization and
 * resource, destructive ones marked), review and apply exactly that plan with progress and cancel; drift of
 * live state from the last applied revision, refreshed on demand, with "apply it again" and "export live state
 * as a new revision"; and the history of applies with their plans.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import {
  CONFIG_RESOURCE_LABELS,
  ConfigPlanRequest,
  type ConfigChange,
  type ConfigPlan,
  type ConfigReport,
  type ConfigRevisionSummary,
} from '@/api/console/configuration';
import { parseConfigDocument } from '@/api/config-document/parse';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { CheckboxField, Form, SubmitButton, TextareaField } from '@/components/form';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import {
  driftQueryOptions,
  fetchExport,
  fetchRevision,
  progressQueryOptions,
  revisionsInfiniteQueryOptions,
  useApply,
  useCancelApply,
  useExportRevision,
  usePlan,
} from './api';

const changeCol = columnHelper<ConfigChange>();
const changeColumns = changeCol.columns([
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
const revisionColumns = revCol.columns([
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

type Values = { document: string; file: string; prune: boolean };
const STARTER = 'version: 1\norganizations: []\n';

export function ConfigurationScreen() {
  const [document, setDocument] = useState<string | null>(null);
  const [reviewed, setReviewed] = useState<{ plan: ConfigPlan; body: Values } | null>(null);
  const [report, setReport] = useState<ConfigReport | null>(null);
  const [applyId, setApplyId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const [loadError, setLoadError] = useState<unknown>(null);
  const plan = usePlan();
  const apply = useApply();
  const cancel = useCancelApply();
  const exportRevision = useExportRevision();
  const drift = useQuery({ ...driftQueryOptions(), enabled: false });
  const revisions = useInfiniteQuery(revisionsInfiniteQueryOptions());
  const progress = useQuery(progressQueryOptions(apply.isPending ? applyId : null));

  const load = async (get: () => Promise<{ document: string }>) => {
    setLoadError(null);
    try {
      setDocument((await get()).document);
      setReviewed(null);
    } catch (err) {
      setLoadError(err);
    }
  };

  const runApply = async () => {
    if (!reviewed) return;
    setConfirming(false);
    const id = crypto.randomUUID().replace(/-/g, '');
    setApplyId(id);
    const secret_values = Object.fromEntries(reviewed.plan.secret_env.map((n) => [n, values[n] ?? '']));
    const result = await apply.mutateAsync({
      ...reviewed.body,
      plan_id: reviewed.plan.plan_id,
      secret_values,
      apply_id: id,
    });
    setReport(result);
    setReviewed(null);
    setValues({});
  };

  return (
    <div className="flex flex-col gap-6 p-4">
      <header className="flex flex-col gap-1">
        <h1 className="text-xl font-semibold">Configuration</h1>
        <p className="text-sm text-muted">
          The enterprise’s configuration as one document: plan it, review every change, apply exactly that plan. The
          same as <code>npm run config</code>.
        </p>
      </header>

      <section aria-labelledby="drift-heading" className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="drift-heading" className="text-lg font-semibold">
            Drift
          </h2>
          <Button variant="secondary" onClick={() => void drift.refetch()} disabled={drift.isFetching}>
            {drift.isFetching ? 'Checking…' : 'Check for drift'}
          </Button>
          <Button variant="secondary" onClick={() => exportRevision.mutate()} disabled={exportRevision.isPending}>
            Export live state as a new revision
          </Button>
        </div>
        {drift.error ? <ProblemView error={drift.error} onRetry={() => void drift.refetch()} /> : null}
        {drift.data ? (
          drift.data.revision === null ? (
            <p className="text-sm">
              Nothing was applied through the console yet: there is no revision to compare with.
            </p>
          ) : drift.data.changes.length === 0 ? (
            <p className="text-sm">Live state matches revision {drift.data.revision.revision_id}.</p>
          ) : (
            <>
              <p className="text-sm">
                {drift.data.changes.length} resources drifted from revision {drift.data.revision.revision_id}: applying
                it again would make these changes.
              </p>
              <DataTable
                label="Drift"
                tableId="configuration-drift"
                columns={changeColumns}
                data={drift.data.changes}
                getRowId={(c) => c.id}
                empty={{ title: 'No drift' }}
              />
              <div>
                <Button
                  variant="secondary"
                  onClick={() => void load(() => fetchRevision(drift.data!.revision!.revision_id))}
                >
                  Load revision {drift.data.revision.revision_id} to apply it again
                </Button>
              </div>
            </>
          )
        ) : null}
      </section>

      <section aria-labelledby="document-heading" className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <h2 id="document-heading" className="text-lg font-semibold">
            Document
          </h2>
          <Button variant="secondary" onClick={() => void load(fetchExport)}>
            Load live state
          </Button>
        </div>
        {loadError ? <ProblemView error={loadError} /> : null}
        <Form
          key={document ?? 'starter'}
          schema={ConfigPlanRequest}
          aria-label="Configuration document"
          defaultValues={{ document: document ?? STARTER, file: 'document.yaml', prune: false }}
          onSubmit={async (body) => {
            const b = body as Values;
            setReport(null);
            const p = await plan.mutateAsync(b);
            setReviewed({ plan: p, body: b });
          }}
          actions={<SubmitButton pendingLabel="Planning…">Plan</SubmitButton>}
        >
          <TextareaField
            name="document"
            label="Document (YAML or JSON)"
            rows={18}
            textareaClassName="font-mono text-xs"
          />
          <LineErrors />
          <CheckboxField
            name="prune"
            label="Delete what the document does not name, in every set it writes (--prune)"
          />
        </Form>
      </section>

      {reviewed ? (
        <section aria-labelledby="plan-heading" className="flex flex-col gap-2">
          <h2 id="plan-heading" className="text-lg font-semibold">
            Plan
          </h2>
          {reviewed.plan.warnings.map((w) => (
            <p key={w} className="text-warning text-sm">
              {w}
            </p>
          ))}
          <p className="text-sm" role="status">
            {reviewed.plan.changes.length === 0
              ? 'No changes: live state matches the document.'
              : `${reviewed.plan.counts.create} to create, ${reviewed.plan.counts.update} to update, ${reviewed.plan.counts.delete} to delete${reviewed.plan.counts.destructive ? ` (${reviewed.plan.counts.destructive} destructive)` : ''}.`}
          </p>
          {reviewed.plan.changes.length > 0 ? (
            <>
              <DataTable
                label="Planned changes"
                tableId="configuration-plan"
                columns={changeColumns}
                data={reviewed.plan.changes}
                getRowId={(c) => c.id}
                empty={{ title: 'No changes' }}
              />
              {reviewed.plan.secret_env.map((name) => (
                <label key={name} className="flex max-w-md flex-col gap-1 text-sm">
                  Value of {name} (used once for the secret it creates, never stored)
                  <Input
                    type="password"
                    autoComplete="off"
                    value={values[name] ?? ''}
                    onChange={(e) => setValues({ ...values, [name]: e.target.value })}
                  />
                </label>
              ))}
              <div>
                <Button onClick={() => setConfirming(true)} disabled={reviewed.plan.secret_env.some((n) => !values[n])}>
                  Apply this plan
                </Button>
              </div>
            </>
          ) : null}
        </section>
      ) : null}

      {apply.isPending ? (
        <section aria-label="Apply under way" className="flex flex-wrap items-center gap-2 text-sm" role="status">
          Applying: {progress.data?.steps.length ?? 0} of {progress.data?.total ?? '…'} changes done
          {progress.data?.waiting_s ? `; waiting ${progress.data.waiting_s} s for the API’s rate limit` : ''}.
          <Button
            variant="secondary"
            onClick={() => applyId && cancel.mutate(applyId)}
            disabled={cancel.isPending || !applyId}
          >
            Cancel
          </Button>
        </section>
      ) : null}
      {apply.error ? <ProblemView error={apply.error} /> : null}
      {report ? (
        <section aria-labelledby="report-heading" className="flex flex-col gap-1">
          <h2 id="report-heading" className="text-lg font-semibold">
            Report
          </h2>
          <p className="text-sm" role="status">
            {report.message}
          </p>
        </section>
      ) : null}

      <section aria-labelledby="history-heading" className="flex flex-col gap-2">
        <h2 id="history-heading" className="text-lg font-semibold">
          History
        </h2>
        <DataTable
          label="Applied revisions"
          tableId="configuration-history"
          columns={revisionColumns}
          query={revisions}
          getRowId={(r) => String(r.revision_id)}
          empty={{
            title: 'Nothing applied yet',
            hint: 'Plan a document and apply it, or export live state as a new revision.',
          }}
        />
      </section>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Apply this plan?"
        description={
          reviewed
            ? `${reviewed.plan.changes.length} changes, in dependency order. If live state changed since this plan, nothing is applied.`
            : ''
        }
        destructive={(reviewed?.plan.counts.destructive ?? 0) > 0}
        confirmLabel="Apply"
        onConfirm={() => void runApply()}
      />
    </div>
  );
}

/** The document's errors at their lines, as one types (the reader the console uses, in the browser). */
function LineErrors() {
  const text = useWatch<Values, 'document'>({ name: 'document' });
  const errors = useMemo(() => (text ? parseConfigDocument(text, 'document.yaml').errors : []), [text]);
  if (errors.length === 0) return null;
  return (
    <ul aria-label="Errors in the document" className="flex flex-col gap-1 text-sm text-danger">
      {errors.slice(0, 20).map((e, i) => (
        <li key={i}>
          {e.line ? `Line ${e.line}` : 'Document'}
          {e.path ? ` (${e.path})` : ''}: {e.message}
        </li>
      ))}
    </ul>
  );
}
