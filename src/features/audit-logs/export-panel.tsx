/**
 * Export buttons for the current query (CSV, JSON Lines) and, while an export runs, its progress bar, the
 * 429 wait it is in, and a cancel button.
 */
import { Download } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ProblemView } from '@/components/problem-view';
import { formatNumber } from '@/lib/format';
import { fetchAuditLogPage } from './api';
import {
  downloadExport,
  EXPORT_FORMATS,
  exportFileName,
  runExport,
  type ExportFormat,
  type ExportProgress,
} from './export';
import type { AuditLogFilters, ResolvedBounds } from './search';

type State =
  | { kind: 'idle' }
  | { kind: 'running'; format: ExportFormat; progress: ExportProgress; waitingSeconds?: number }
  | { kind: 'done'; format: ExportFormat; count: number; fileName: string }
  | { kind: 'cancelled'; format: ExportFormat; done: number }
  | { kind: 'failed'; format: ExportFormat; error: unknown };

export function ExportPanel({
  filters,
  bounds,
  orgNames,
}: {
  filters: AuditLogFilters;
  bounds: () => ResolvedBounds;
  /** Organization names by id, written beside the ids in the CSV. */
  orgNames?: ReadonlyMap<string, string>;
}) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = async (format: ExportFormat) => {
    controller.current?.abort();
    const ac = new AbortController();
    controller.current = ac;
    const fixed = bounds();
    let progress: ExportProgress = { done: 0, total: null, pages: 0 };
    setState({ kind: 'running', format, progress });
    try {
      const result = await runExport({
        format,
        signal: ac.signal,
        fetchPage: (after, signal) => fetchAuditLogPage(filters, fixed, after, signal),
        orgName: (id) => orgNames?.get(id),
        onProgress: (p) => {
          progress = p;
          setState({ kind: 'running', format, progress: p });
        },
        onRateLimited: (seconds) => setState({ kind: 'running', format, progress, waitingSeconds: seconds }),
      });
      const fileName = exportFileName(format);
      downloadExport(result, format, fileName);
      setState({ kind: 'done', format, count: result.count, fileName });
    } catch (error) {
      if (ac.signal.aborted) setState({ kind: 'cancelled', format, done: progress.done });
      else setState({ kind: 'failed', format, error });
    } finally {
      if (controller.current === ac) controller.current = null;
    }
  };

  const running = state.kind === 'running';
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {(Object.keys(EXPORT_FORMATS) as ExportFormat[]).map((f) => (
          <Button key={f} size="sm" disabled={running} onClick={() => void start(f)}>
            <Download className="size-3.5" aria-hidden />
            Export {EXPORT_FORMATS[f].label}
          </Button>
        ))}
      </div>
      {state.kind === 'running' && (
        <div
          className="flex min-w-64 flex-col gap-1 rounded-md border border-line bg-surface p-2 text-xs"
          role="status"
        >
          <div className="flex items-center justify-between gap-2">
            <span>
              Exporting {EXPORT_FORMATS[state.format].label}: {formatNumber(state.progress.done)}
              {state.progress.total !== null ? ` of ${formatNumber(state.progress.total)}` : ''} entries
            </span>
            <Button size="sm" variant="danger" onClick={() => controller.current?.abort()}>
              Cancel export
            </Button>
          </div>
          <progress
            className="h-2 w-full overflow-hidden rounded accent-accent"
            aria-label="Export progress"
            value={state.progress.done}
            max={Math.max(1, state.progress.total ?? state.progress.done + 1)}
          />
          {state.waitingSeconds !== undefined && (
            <span className="text-warn">
              Rate limited by the API: waiting {state.waitingSeconds} s, then continuing…
            </span>
          )}
        </div>
      )}
      {state.kind === 'done' && (
        <p role="status" className="text-xs text-success">
          Exported {formatNumber(state.count)} entries to {state.fileName}
        </p>
      )}
      {state.kind === 'cancelled' && (
        <p role="status" className="text-xs text-muted">
          Export cancelled after {formatNumber(state.done)} entries; nothing was saved.
        </p>
      )}
      {state.kind === 'failed' && <ProblemView compact error={state.error} onRetry={() => void start(state.format)} />}
    </div>
  );
}
