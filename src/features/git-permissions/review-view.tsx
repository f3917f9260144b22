/** The bulk editor's review: what applying the edit adds, removes and changes, before anything is applied. */
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { formatNumber } from '@/lib/format';
import type { DraftSummary } from './editor-state';
import { DiffView } from './shared';

export function ReviewView({
  summary,
  connectionName,
  error,
  pending,
  onBack,
  onApply,
}: {
  summary: DraftSummary;
  connectionName: (id: string) => string;
  /** Why the last apply failed, when no row shows it. */
  error: unknown;
  pending: boolean;
  onBack: () => void;
  onApply: () => void;
}) {
  const { canReview, valid, hasChanges } = summary;
  return (
    <section aria-label="Review changes" className="flex flex-col gap-3">
      <h2 className="text-base font-semibold">Review changes</h2>
      <DiffView diff={summary.diff} connectionName={connectionName} emptyText="No differences from the current set." />
      {error ? <ProblemView error={error} /> : null}
      <div className="flex flex-wrap gap-2">
        <Button onClick={onBack} disabled={pending}>
          Back to editing
        </Button>
        <Button variant="primary" onClick={onApply} disabled={!canReview || pending}>
          {pending ? 'Applying…' : `Apply ${formatNumber(summary.changeCount)} changes`}
        </Button>
      </div>
      {!canReview && (
        <p className="text-sm text-danger">
          {!valid
            ? 'Fix the rows with errors first.'
            : !hasChanges
              ? 'There is nothing to apply.'
              : 'Choose per-item operations above, or make the set smaller.'}
        </p>
      )}
    </section>
  );
}
