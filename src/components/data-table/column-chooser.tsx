/**
 * The "Columns" button of a data table. The menu behind it (Radix DropdownMenu, `column-menu.tsx`) loads on
 * first use, so the first screen does not pay for a menu most visits never open.
 */
import type { RowData, Table } from '@tanstack/react-table';
import { Columns3 } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from '@/components/ui/button';
import type { DataTableFeatures } from './features';

const loadMenu = () => import('./column-menu');
const ColumnMenu = lazy(loadMenu);

function columnLabel(column: { id: string; columnDef: { header?: unknown; meta?: { label?: string } } }): string {
  const header = column.columnDef.header;
  return column.columnDef.meta?.label ?? (typeof header === 'string' ? header : column.id);
}

export function ColumnChooser<TData extends RowData>({ table }: { table: Table<DataTableFeatures, TData> }) {
  const [opened, setOpened] = useState(false);
  const columns = table
    .getAllLeafColumns()
    .filter((c) => c.getCanHide())
    .map((c) => ({ id: c.id, label: columnLabel(c), visible: c.getIsVisible() }));
  if (columns.length === 0) return null;
  const label = `Columns (${columns.filter((c) => c.visible).length} of ${columns.length} shown)`;
  const button = (
    <Button
      size="sm"
      variant="ghost"
      aria-label={label}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={() => setOpened(true)}
    >
      <Columns3 className="size-3.5" aria-hidden />
      Columns
    </Button>
  );
  if (!opened) return button;
  return (
    <Suspense fallback={button}>
      <ColumnMenu
        columns={columns}
        label={label}
        onToggle={(id, visible) => table.getColumn(id)?.toggleVisibility(visible)}
        onShowAll={() => table.resetColumnVisibility(true)}
      />
    </Suspense>
  );
}
