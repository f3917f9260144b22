// @vitest-environment jsdom
/**
 * The sessions list under live updates: a poll that changes one session's status renders that session's row
 * again and no other (the rows are counted by a probe column, whose cell renders with its row).
 */
import { act, render, screen, within } from '@testing-library/react';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { useState } from 'react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Session } from '@/api/operations/sessions';
import { columnHelper, DataTable, type InfiniteRowsQuery } from '@/components/data-table';
import { mergePages, type SessionsPages } from './api';
import { sessionColumns } from './sessions-list';

const session = (i: number, status: string): Session => ({
  session_id: `s${i}`,
  url: `https://x/s${i}`,
  status,
  title: `Session ${i}`,
  org_id: 'org-1',
  created_at: 1_700_000_000 + i,
  updated_at: 1_700_000_000 + i,
  tags: i % 2 ? ['a', 'b'] : [],
  acus_consumed: i / 3,
  pull_requests: [],
  is_archived: i === 4,
});

const restore: Array<() => void> = [];
beforeAll(() => {
  // jsdom has no layout: the table's scrolling element reports a 600 px high viewport.
  for (const [key, value] of [
    ['clientHeight', 600],
    ['clientWidth', 1200],
  ] as const) {
    const before = Object.getOwnPropertyDescriptor(HTMLElement.prototype, key);
    Object.defineProperty(HTMLElement.prototype, key, {
      configurable: true,
      get(this: HTMLElement) {
        return this.getAttribute('role') === 'table' ? value : 0;
      },
    });
    restore.push(() => {
      if (before) Object.defineProperty(HTMLElement.prototype, key, before);
    });
  }
});
afterAll(() => restore.forEach((r) => r()));

describe('sessions list, live', () => {
  it('re-renders only the row of the session whose status changed, and shows the new status', async () => {
    const renders = new Map<string, number>();
    const col = columnHelper<Session>();
    const columns = [
      ...sessionColumns(false, new Map()),
      col.display({
        id: 'probe',
        header: 'Probe',
        cell: ({ row }) => {
          renders.set(row.original.session_id, (renders.get(row.original.session_id) ?? 0) + 1);
          return null;
        },
      }),
    ];
    let setPages: (update: (old: SessionsPages) => SessionsPages) => void = () => {};
    function List() {
      const [pages, set] = useState<SessionsPages>({
        pageParams: [undefined, 'c1'],
        pages: [
          { items: Array.from({ length: 10 }, (_, i) => session(i, 'running')), end_cursor: 'c1', has_next_page: true },
          {
            items: Array.from({ length: 10 }, (_, i) => session(i + 10, 'exit')),
            end_cursor: null,
            has_next_page: false,
          },
        ],
      });
      setPages = set;
      const query: InfiniteRowsQuery<Session> = {
        data: pages,
        hasNextPage: false,
        isFetchingNextPage: false,
        isPending: false,
        error: null,
        fetchNextPage: vi.fn(() => Promise.resolve()),
        refetch: vi.fn(() => Promise.resolve()),
      };
      return (
        <DataTable
          label="Sessions"
          tableId="sessions-live-test"
          columns={columns}
          query={query}
          getRowId={(s) => s.session_id}
          selection={{ rowLabel: (s) => `Select ${s.title ?? s.session_id}` }}
          estimateRowHeight={53}
          fixedRowHeight
          empty={{ title: 'No sessions yet' }}
        />
      );
    }
    const root = createRootRoute({ component: List });
    const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ['/'] }) });
    render(<RouterProvider router={router} />);

    const table = await screen.findByRole('table', { name: 'Sessions' });
    const rowOf = (title: string) => within(table).getByRole('link', { name: title }).closest('[role="row"]')!;
    expect(within(rowOf('Session 3') as HTMLElement).getByTestId('session-status')).toHaveTextContent('running');
    const before = new Map(renders);
    expect(before.size).toBeGreaterThanOrEqual(10);

    // What the live poll does with its answer: merge the changed session into the loaded pages.
    act(() =>
      setPages((old) => mergePages(old, new Map([['s3', { ...session(3, 'exit'), updated_at: 1_800_000_000 }]]))),
    );

    expect(within(rowOf('Session 3') as HTMLElement).getByTestId('session-status')).toHaveTextContent('exit');
    expect(renders.get('s3')).toBe(before.get('s3')! + 1);
    for (const [id, n] of before) if (id !== 's3') expect(renders.get(id), id).toBe(n);

    // A poll that brings nothing new changes nothing, and renders nothing.
    const settled = new Map(renders);
    act(() => setPages((old) => mergePages(old, new Map([['s5', session(5, 'running')]]))));
    expect(renders).toEqual(settled);
  });
});
