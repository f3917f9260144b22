/** Under the data table: how many rows are loaded (of how many), the next page, and the column chooser. */
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { formatNumber } from '@/lib/format';
import { ProblemView } from '../problem-view';

export interface TableFooterProps {
  loaded: number;
  shown: number | undefined;
  total: number | null | undefined;
  hasNextPage: boolean;
  fetching: boolean;
  error: unknown;
  onMore: (() => void) | undefined;
  chooser: ReactNode;
}

export function TableFooter(props: TableFooterProps) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
      <span aria-live="polite">
        {props.onMore ? (
          <>
            Loaded {formatNumber(props.loaded)}
            {/* A total below what was loaded is wrong (a mock's 0): said only when it can be true. */}
            {props.total != null && props.total >= props.loaded ? ` of ${formatNumber(props.total)}` : ''}
            {props.hasNextPage ? '' : ' (all)'}
          </>
        ) : (
          `${formatNumber(props.loaded)} ${props.loaded === 1 ? 'row' : 'rows'}`
        )}
        {props.shown !== undefined && ` · ${formatNumber(props.shown)} shown`}
      </span>
      <div className="flex flex-wrap items-center gap-2">
        {props.error ? (
          <ProblemView compact error={props.error} onRetry={props.onMore} />
        ) : props.hasNextPage && props.onMore ? (
          <Button size="sm" onClick={props.onMore} disabled={props.fetching}>
            {props.fetching ? 'Loading…' : 'Load more'}
          </Button>
        ) : null}
        {props.chooser}
      </div>
    </div>
  );
}
