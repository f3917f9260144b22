/**
 * The Configuration screen: the enterprise's configuration as a document — edit it (errors shown at their
 * lines as one types, from the same reader the console uses), plan it (every change per organization and
 * resource, destructive ones marked), review and apply exactly that plan with progress and cancel; drift of
 * live state from the last applied revision, refreshed on demand, with "apply it again" and "export live state
 * as a new revision"; and the history of applies with their plans.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { ConfigPlan, ConfigReport } from '@/api/console/configuration';
import { DataTable } from '@/components/data-table';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import {
  fetchExport,
  progressQueryOptions,
  revisionsInfiniteQueryOptions,
  useApply,
  useCancelApply,
  usePlan,
} from './api';
import { revisionColumns } from './configuration-columns';
import { DocumentSection, type DocumentValues } from './document-section';
import { DriftSection } from './drift-section';
import { PlanSection } from './plan-section';

export function ConfigurationScreen() {
  const [document, setDocument] = useState<string | null>(null);
  const [reviewed, setReviewed] = useState<{ plan: ConfigPlan; body: DocumentValues } | null>(null);
  const [report, setReport] = useState<ConfigReport | null>(null);
  const [applyId, setApplyId] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const [loadError, setLoadError] = useState<unknown>(null);
  const plan = usePlan();
  const apply = useApply();

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

      <DriftSection onLoad={(get) => void load(get)} />

      <DocumentSection
        document={document}
        loadError={loadError}
        onLoadLive={() => void load(fetchExport)}
        onPlan={async (body) => {
          setReport(null);
          const p = await plan.mutateAsync(body);
          setReviewed({ plan: p, body });
        }}
      />

      {reviewed ? (
        <PlanSection plan={reviewed.plan} values={values} onValues={setValues} onApply={() => setConfirming(true)} />
      ) : null}

      {apply.isPending ? <ApplyUnderWay applyId={applyId} /> : null}
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

      <RevisionHistory />

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

/** An apply's progress while it runs (steps done, waits for the API's rate limit), with its cancel. */
function ApplyUnderWay({ applyId }: { applyId: string | null }) {
  const progress = useQuery(progressQueryOptions(applyId));
  const cancel = useCancelApply();
  return (
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
  );
}

/** The applies and recorded live states, newest first, with their plans' counts. */
function RevisionHistory() {
  const revisions = useInfiniteQuery(revisionsInfiniteQueryOptions());
  return (
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
  );
}
