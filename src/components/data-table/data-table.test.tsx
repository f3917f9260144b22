// @vitest-environment jsdom
/**
 * The data table as a user meets it: sorting by a header, shift-click ranges and "select all loaded", the
 * keyboard, a bounded DOM over 10,000 rows, hidden columns remembered, and the next page as the end comes
 * into view. jsdom has no layout, so every element reports a 400 px high viewport and 40 px rows.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DataTable, type InfiniteRowsQuery } from './data-table';
import { columnHelper } from './features';

interface Item {
  id: string;
  name: string;
  size: number;
}

const items = (n: number, from = 0): Item[] =>
  Array.from({ length: n }, (_, i) => ({ id: `i${from + i}`, name: `Row ${from + i}`, size: (from + i) % 7 }));

const col = columnHelper<Item>();
const columns = col.columns([
  col.accessor('name', { header: 'Name', enableSorting: true }),
  col.accessor('size', { header: 'Size', enableSorting: true, meta: { align: 'end' } }),
  col.display({ id: 'note', header: 'Note', cell: () => 'note' }),
  col.accessor('id', { header: 'Plain' }),
]);

function queryOf(pages: Item[][], extra: Partial<InfiniteRowsQuery<Item>> = {}): InfiniteRowsQuery<Item> {
  return {
    data: { pages: pages.map((p) => ({ items: p, total: 100_000 })) },
    hasNextPage: false,
    isFetchingNextPage: false,
    isPending: false,
    error: null,
    fetchNextPage: vi.fn(() => Promise.resolve()),
    refetch: vi.fn(() => Promise.resolve()),
    ...extra,
  };
}

const bodyRows = () => screen.getAllByRole('row').filter((r) => r.hasAttribute('data-index'));
const names = () => bodyRows().map((r) => within(r).getAllByRole('cell').at(-4)?.textContent);
const checkbox = (name: string) => screen.getByRole('checkbox', { name: `Select ${name}` });

const restore: Array<() => void> = [];
function stub<K extends keyof HTMLElement>(key: K, get: (this: HTMLElement) => unknown) {
  const before = Object.getOwnPropertyDescriptor(HTMLElement.prototype, key);
  Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get });
  restore.push(() => {
    if (before) Object.defineProperty(HTMLElement.prototype, key, before);
  });
}

beforeAll(() => {
  stub('clientHeight', function () {
    return this.getAttribute('role') === 'table' ? 400 : 0;
  });
  stub('clientWidth', function () {
    return this.getAttribute('role') === 'table' ? 800 : 0;
  });
  stub('offsetHeight', function () {
    return this.getAttribute('role') === 'row' ? 40 : 0;
  });
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};
});
afterAll(() => restore.forEach((r) => r()));
afterEach(() => {
  cleanup();
  localStorage.clear();
});

describe('sorting', () => {
  it('sorts by a header in the browser, with aria-sort on the header', async () => {
    const user = userEvent.setup();
    render(
      <DataTable
        label="Things"
        tableId="t-sort"
        columns={columns}
        data={[
          { id: 'a', name: 'Beta', size: 2 },
          { id: 'b', name: 'Alpha', size: 3 },
          { id: 'c', name: 'Gamma', size: 1 },
        ]}
        getRowId={(r) => r.id}
        empty={{ title: 'Nothing' }}
      />,
    );
    const header = screen.getByRole('columnheader', { name: /Name/ });
    expect(header).toHaveAttribute('aria-sort', 'none');
    expect(names()).toEqual(['Beta', 'Alpha', 'Gamma']);

    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    expect(names()).toEqual(['Alpha', 'Beta', 'Gamma']);

    await user.click(within(header).getByRole('button'));
    expect(header).toHaveAttribute('aria-sort', 'descending');
    expect(names()).toEqual(['Gamma', 'Beta', 'Alpha']);
    // Sorting is opt-in: a column without `enableSorting` is a plain header.
    expect(within(screen.getByRole('columnheader', { name: 'Note' })).queryByRole('button')).toBeNull();
    expect(within(screen.getByRole('columnheader', { name: 'Plain' })).queryByRole('button')).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'Plain' })).not.toHaveAttribute('aria-sort');
  });

  it('does not sort a partly loaded list in the browser', () => {
    render(
      <DataTable
        label="Things"
        tableId="t-partial"
        columns={columns}
        query={queryOf([items(5)], { hasNextPage: true })}
        getRowId={(r) => r.id}
        empty={{ title: 'Nothing' }}
      />,
    );
    expect(within(screen.getByRole('columnheader', { name: 'Name' })).queryByRole('button')).toBeNull();
  });

  it('hands the sort to the caller when the API sorts, keeping the rows in the order received', async () => {
    const user = userEvent.setup();
    const onSortingChange = vi.fn();
    render(
      <DataTable
        label="Things"
        tableId="t-manual"
        columns={columns}
        query={queryOf([items(3)], { hasNextPage: true })}
        manualSorting
        sorting={[{ id: 'size', desc: true }]}
        onSortingChange={onSortingChange}
        getRowId={(r) => r.id}
        empty={{ title: 'Nothing' }}
      />,
    );
    const size = screen.getByRole('columnheader', { name: /Size/ });
    expect(size).toHaveAttribute('aria-sort', 'descending');
    await user.click(within(size).getByRole('button'));
    expect(onSortingChange).toHaveBeenCalledWith([{ id: 'size', desc: false }]);
    expect(names()).toEqual(['Row 0', 'Row 1', 'Row 2']);
  });
});

describe('selection', () => {
  const table = (max?: number) => (
    <DataTable
      label="Things"
      tableId="t-select"
      columns={columns}
      data={items(10)}
      getRowId={(r) => r.id}
      selection={{ rowLabel: (r) => `Select ${r.name}`, max }}
      empty={{ title: 'Nothing' }}
    />
  );

  it('selects a range with shift-click', async () => {
    const user = userEvent.setup();
    render(table());
    await user.click(checkbox('Row 2'));
    await user.keyboard('{Shift>}');
    await user.click(checkbox('Row 6'));
    await user.keyboard('{/Shift}');
    const checked = items(10).filter((i) => checkbox(i.name).getAttribute('aria-checked') === 'true');
    expect(checked.map((i) => i.name)).toEqual(['Row 2', 'Row 3', 'Row 4', 'Row 5', 'Row 6']);
    expect(screen.getByRole('checkbox', { name: 'Select all loaded' })).toHaveAttribute('aria-checked', 'mixed');
    expect(bodyRows()[4]).toHaveAttribute('aria-selected', 'true');
  });

  it('selects all loaded rows, within the limit when there is one', async () => {
    const user = userEvent.setup();
    const { unmount } = render(table());
    await user.click(screen.getByRole('checkbox', { name: 'Select all loaded' }));
    expect(items(10).every((i) => checkbox(i.name).getAttribute('aria-checked') === 'true')).toBe(true);
    unmount();

    render(table(3));
    await user.click(screen.getByRole('checkbox', { name: 'Select all loaded' }));
    const checked = items(10).filter((i) => checkbox(i.name).getAttribute('aria-checked') === 'true');
    expect(checked.map((i) => i.name)).toEqual(['Row 0', 'Row 1', 'Row 2']);
    expect(checkbox('Row 5')).toBeDisabled();
  });
});

describe('keyboard', () => {
  it('is one tab stop; arrows move the active row, Enter opens it, Space selects it', async () => {
    const user = userEvent.setup();
    const onRowOpen = vi.fn();
    render(
      <>
        <button type="button">Before</button>
        <DataTable
          label="Things"
          tableId="t-keys"
          columns={columns}
          data={items(20)}
          getRowId={(r) => r.id}
          selection={{ rowLabel: (r) => `Select ${r.name}` }}
          onRowOpen={onRowOpen}
          empty={{ title: 'Nothing' }}
        />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Before' }));
    await user.tab();
    expect(document.activeElement).toBe(bodyRows()[0]);
    // A row that opens shows a pointer, and keeps its layout containment (one class each, not run together).
    expect(bodyRows()[0]!.classList).toContain('cursor-pointer');
    expect(bodyRows()[0]!.classList).toContain('[contain:layout_style]');

    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(bodyRows()[1]);
    expect(bodyRows()[1]).toHaveAttribute('tabindex', '0');
    expect(bodyRows()[0]).toHaveAttribute('tabindex', '-1');

    await user.keyboard('{Enter}');
    expect(onRowOpen).toHaveBeenCalledWith(items(20)[1]);

    await user.keyboard(' ');
    expect(checkbox('Row 1')).toHaveAttribute('aria-checked', 'true');
    expect(onRowOpen).toHaveBeenCalledTimes(1);

    await user.keyboard('{End}');
    expect(document.activeElement).toHaveAttribute('aria-rowindex', '21');
    await user.keyboard('{Home}');
    expect(document.activeElement).toHaveAttribute('aria-rowindex', '2');

    // The next tab stop is after the table: its checkboxes and sort buttons are reached with arrows.
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /^Columns/ }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(bodyRows()[0]);
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(checkbox('Row 0'));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getAllByRole('row')[0]);
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(document.activeElement).toBe(within(screen.getByRole('columnheader', { name: /Name/ })).getByRole('button'));
  });
});

describe('virtualization', () => {
  it('keeps fewer than 100 rows in the DOM with 10,000 loaded', () => {
    render(
      <DataTable
        label="Things"
        tableId="t-big"
        columns={columns}
        query={queryOf([items(10_000)])}
        getRowId={(r) => r.id}
        empty={{ title: 'Nothing' }}
      />,
    );
    const table = screen.getByRole('table', { name: 'Things' });
    const rendered = within(table).getAllByRole('row');
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.length).toBeLessThan(100);
    expect(table).toHaveAttribute('aria-rowcount', '100001');
    expect(screen.getByText(/^Loaded 10,000 of 100,000/)).toBeInTheDocument();
  });
});

describe('rendering', () => {
  /** Renders of each row, counted by a column whose cell renders with its row (cells are not memoized alone). */
  function probe() {
    const renders = new Map<string, number>();
    const probed = [
      ...columns,
      col.display({
        id: 'probe',
        header: 'Probe',
        cell: ({ row }) => {
          renders.set(row.original.id, (renders.get(row.original.id) ?? 0) + 1);
          return null;
        },
      }),
    ];
    return { renders, columns: probed };
  }

  it("names each row by its cells' texts with a space between them, not run together", () => {
    render(
      <DataTable
        label="Items"
        tableId="t-names"
        columns={columns}
        query={queryOf([items(3)])}
        getRowId={(i) => i.id}
        empty={{ title: 'None' }}
      />,
    );
    const row = bodyRows()[1]!;
    expect(row).toHaveAccessibleName('Row 1 1 note i1');
    // By its cells, each named apart (Chromium runs the text of grid cells together in a name from content).
    const cells = within(row).getAllByRole('cell');
    expect(row.getAttribute('aria-labelledby')?.split(' ')).toEqual(cells.map((c) => c.id));
    expect(
      new Set(
        bodyRows().flatMap((r) =>
          within(r)
            .getAllByRole('cell')
            .map((c) => c.id),
        ),
      ).size,
    ).toBe(12);
  });

  it('renders only the rows coming into view as the list scrolls, with fixed row heights', () => {
    const { renders, columns: probed } = probe();
    render(
      <DataTable
        label="Things"
        tableId="t-scroll"
        columns={probed}
        data={items(1_000)}
        getRowId={(r) => r.id}
        estimateRowHeight={40}
        fixedRowHeight
        empty={{ title: 'Nothing' }}
      />,
    );
    const table = screen.getByRole('table', { name: 'Things' });
    const before = new Map(renders);
    expect(before.get('i0')).toBe(1);
    for (let step = 1; step <= 10; step++) {
      act(() => {
        table.scrollTop = step * 120; // three rows a step
        fireEvent.scroll(table);
      });
    }
    // Every row rendered once: the rows that stayed in view did not render again, the new ones rendered once.
    expect([...renders.values()].every((n) => n === 1)).toBe(true);
    expect(renders.get('i30')).toBe(1);
    // A row is exactly as tall as said.
    const row = bodyRows()[0]!;
    expect(row.classList).toContain('h-(--dt-row-height)');
    expect(row.classList).toContain('[contain:size_layout_style]');
    expect(screen.getByRole('table', { name: 'Things' }).querySelector('[role="rowgroup"]:last-child')).toHaveStyle({
      '--dt-row-height': '40px',
    });
  });

  it('renders only the row whose data changed when the pages are updated, not the others', () => {
    const { renders, columns: probed } = probe();
    const first = items(20);
    const second = items(20, 20);
    const props = {
      label: 'Things',
      tableId: 't-live',
      columns: probed,
      getRowId: (r: Item) => r.id,
      empty: { title: 'Nothing' },
    };
    const { rerender } = render(<DataTable {...props} query={queryOf([first, second])} />);
    const before = new Map(renders);
    expect(before.size).toBeGreaterThan(5);

    // As a live poll merges one changed item: a new page object for its page, the other items as they were.
    const changed = first.map((it) => (it.id === 'i3' ? { ...it, name: 'Row 3, renamed' } : it));
    rerender(<DataTable {...props} query={queryOf([changed, second])} />);
    expect(renders.get('i3')).toBe(before.get('i3')! + 1);
    for (const [id, n] of before) if (id !== 'i3') expect(renders.get(id), id).toBe(n);
    expect(screen.getByText('Row 3, renamed')).toBeInTheDocument();

    // The same data again (a refetch that changed nothing): no row renders.
    const afterUpdate = new Map(renders);
    rerender(<DataTable {...props} query={queryOf([changed, second])} />);
    for (const [id, n] of afterUpdate) expect(renders.get(id), id).toBe(n);
  });

  it('renders only the rows whose selection changed', async () => {
    const user = userEvent.setup();
    const { renders, columns: probed } = probe();
    render(
      <DataTable
        label="Things"
        tableId="t-select-renders"
        columns={probed}
        data={items(20)}
        getRowId={(r) => r.id}
        selection={{ rowLabel: (r) => `Select ${r.name}` }}
        empty={{ title: 'Nothing' }}
      />,
    );
    // A click on row 2 selects it and makes it the active row (the tab stop, which row 0 gives up).
    await user.click(within(bodyRows()[2]!).getByRole('cell', { name: 'Row 2' }));
    expect(checkbox('Row 2')).toBeChecked();
    // Its box, now: only that row renders again.
    const before = new Map(renders);
    await user.click(checkbox('Row 2'));
    expect(checkbox('Row 2')).not.toBeChecked();
    expect(renders.get('i2')).toBe(before.get('i2')! + 1);
    for (const [id, n] of before) if (id !== 'i2') expect(renders.get(id), id).toBe(n);
  });
});

describe('column visibility', () => {
  it('remembers a hidden column for the screen', async () => {
    const user = userEvent.setup();
    const table = (
      <DataTable
        label="Things"
        tableId="t-columns"
        columns={columns}
        data={items(3)}
        getRowId={(r) => r.id}
        empty={{ title: 'Nothing' }}
      />
    );
    const { unmount } = render(table);
    expect(screen.getByRole('columnheader', { name: /Size/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Columns/ }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'Size' }));
    expect(screen.queryByRole('columnheader', { name: /Size/ })).toBeNull();
    unmount();

    render(table);
    expect(screen.queryByRole('columnheader', { name: /Size/ })).toBeNull();
    expect(screen.getByRole('columnheader', { name: /Name/ })).toBeInTheDocument();
    // Another screen has its own columns.
    cleanup();
    render(
      <DataTable
        label="Other"
        tableId="t-other"
        columns={columns}
        data={items(3)}
        getRowId={(r) => r.id}
        empty={{ title: 'Nothing' }}
      />,
    );
    expect(screen.getByRole('columnheader', { name: /Size/ })).toBeInTheDocument();
  });
});

describe('infinite loading', () => {
  it('requests the next page when the end comes into view, not before', () => {
    const query = queryOf([items(100)], { hasNextPage: true });
    render(
      <DataTable
        label="Things"
        tableId="t-more"
        columns={columns}
        query={query}
        getRowId={(r) => r.id}
        estimateRowHeight={40}
        empty={{ title: 'Nothing' }}
      />,
    );
    expect(query.fetchNextPage).not.toHaveBeenCalled();
    const table = screen.getByRole('table', { name: 'Things' });
    act(() => {
      table.scrollTop = 100 * 40 - 400;
      fireEvent.scroll(table);
    });
    expect(query.fetchNextPage).toHaveBeenCalledTimes(1);
    expect(Number(within(table).getAllByRole('row').at(-1)?.getAttribute('aria-rowindex'))).toBe(101);
  });

  it('shows skeleton rows while loading, an empty state, and an error with a retry', async () => {
    const user = userEvent.setup();
    const props = {
      label: 'Things',
      tableId: 't-states',
      columns,
      getRowId: (r: Item) => r.id,
      empty: { title: 'No things yet' },
    };
    const { rerender } = render(<DataTable {...props} query={queryOf([], { data: undefined, isPending: true })} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading');
    expect(screen.getAllByRole('row')).toHaveLength(1); // the header; skeleton rows are hidden from assistive tech

    rerender(<DataTable {...props} query={queryOf([[]])} />);
    expect(screen.getByText('No things yet')).toBeInTheDocument();

    const failed = queryOf([], { data: undefined, error: new Error('boom') });
    rerender(<DataTable {...props} query={failed} />);
    expect(screen.getByRole('alert')).toHaveTextContent('boom');
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(failed.refetch).toHaveBeenCalled();
  });
});
