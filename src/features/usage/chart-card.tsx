/**
 * One chart of the usage screens, with what every chart owes its reader: a text alternative (a sentence that
 * says what it shows), a table view and a CSV export of exactly the numbers drawn, and — for daily figures —
 * the billing-day boundary it uses. The chart itself is passed in (recharts, loaded with the route).
 */
import { Download } from 'lucide-react';
import { useMemo, type ReactNode } from 'react';
import { BILLING_DAY_NOTE } from '@/api/billing-day';
import { columnHelper, DataTable } from '@/components/data-table';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toCsv } from '@/lib/csv';
import { downloadText } from '@/lib/download';
import { formatNumber } from '@/lib/format';
import { missingPermissionOf } from './permission';

export type ChartRow = Record<string, string | number | null>;

export interface ChartColumn {
  key: string;
  /** The column's name in the table and the CSV. */
  header: string;
  /** Numbers are right-aligned and formatted in the table; the CSV keeps them as they are. */
  numeric?: boolean;
  /** How the table shows the value (the CSV never formats). */
  format?: (value: string | number | null, row: ChartRow) => string;
}

export interface ChartData {
  columns: readonly ChartColumn[];
  rows: readonly ChartRow[];
  /** One or two sentences: what the chart shows, in words (its text alternative). */
  summary: string;
}

/** The CSV of a chart: its columns' headers, then its rows, values as drawn. */
export function chartCsv(data: Pick<ChartData, 'columns' | 'rows'>): string {
  return toCsv(
    data.columns.map((c) => c.header),
    data.rows.map((r) => data.columns.map((c) => r[c.key] ?? null)),
  );
}

const col = columnHelper<ChartRow>();

function ChartTable({ label, data }: { label: string; data: ChartData }) {
  const first = data.columns[0]?.key ?? 'id';
  const columns = useMemo(
    () =>
      col.columns(
        data.columns.map((c, i) =>
          col.accessor((r) => r[c.key] ?? null, {
            id: c.key,
            header: c.header,
            enableSorting: true,
            enableHiding: i > 0,
            meta: {
              width: i === 0 ? 'minmax(9rem,1.4fr)' : 'minmax(6rem,1fr)',
              align: c.numeric ? 'end' : 'start',
              className: c.numeric ? 'tabular-nums' : 'truncate',
              card: i === 0 ? 'title' : 'field',
            },
            cell: ({ getValue, row }) => {
              const v = getValue() as string | number | null;
              if (c.format) return c.format(v, row.original);
              return typeof v === 'number' ? formatNumber(v, 2) : (v ?? '—');
            },
          }),
        ),
      ),
    [data.columns],
  );
  return (
    <DataTable
      label={label}
      tableId={`usage-${label}`}
      columns={columns}
      data={data.rows}
      getRowId={(r) => String(r[first])}
      empty={{ title: 'Nothing in this range' }}
      estimateRowHeight={36}
      minWidth={`${Math.max(20, data.columns.length * 8)}rem`}
      className="h-auto max-h-96 min-h-24"
    />
  );
}

export function ChartCard({
  title,
  description,
  data,
  query,
  daily = true,
  csvName,
  chart,
  headerExtra,
}: {
  title: string;
  description?: ReactNode;
  /** Undefined while loading. */
  data: ChartData | undefined;
  /** The load state, for loading and error views. */
  query: { isPending: boolean; error: unknown; refetch: () => unknown };
  /** The figures follow billing days: say which boundary. */
  daily?: boolean;
  /** File name of the export, without `.csv`. */
  csvName: string;
  /** The chart, drawn from `data.rows`. */
  chart: (data: ChartData) => ReactNode;
  headerExtra?: ReactNode;
}) {
  const headingId = `chart-${csvName}`;
  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-lg border border-line bg-surface p-4">
      <div className="mb-2 flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 id={headingId} className="font-semibold">
            {title}
          </h2>
          {description && <p className="text-sm text-muted">{description}</p>}
          {daily && <p className="text-xs text-muted">{BILLING_DAY_NOTE}</p>}
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {headerExtra}
          <Button
            size="sm"
            disabled={!data}
            aria-label={`Export ${title} as CSV`}
            onClick={() => data && downloadText(`${csvName}.csv`, chartCsv(data))}
          >
            <Download className="size-3.5" aria-hidden />
            CSV
          </Button>
        </div>
      </div>
      {missingPermissionOf(query.error) ? (
        // The screen names the missing permission once, at its top; here only what this card leaves out.
        <p
          className="rounded-md border border-line bg-surface-2 p-3 text-sm text-muted"
          data-testid="card-not-permitted"
        >
          Not shown: this needs the {missingPermissionOf(query.error)} permission (see above).
        </p>
      ) : query.error ? (
        <ProblemView error={query.error} onRetry={() => void query.refetch()} />
      ) : !data ? (
        <div role="status" aria-label={`Loading ${title}`}>
          <Skeleton className="h-56 w-full" />
        </div>
      ) : (
        <Tabs defaultValue="chart">
          <TabsList aria-label={`${title}: view`}>
            <TabsTrigger value="chart">Chart</TabsTrigger>
            <TabsTrigger value="table">Table</TabsTrigger>
          </TabsList>
          <TabsContent value="chart">
            <figure className="m-0">
              <div role="img" aria-label={`${title}. ${data.summary}`} className="h-64 w-full min-w-0">
                {chart(data)}
              </div>
              <figcaption className="mt-2 text-sm text-muted">{data.summary}</figcaption>
            </figure>
          </TabsContent>
          <TabsContent value="table">
            <ChartTable label={title} data={data} />
          </TabsContent>
        </Tabs>
      )}
    </section>
  );
}
