/**
 * The "Columns" menu of a data table: show or hide each column that may be hidden (remembered per screen).
 * Loaded when first opened (see `column-chooser.tsx`), so a list's first paint does not carry a menu.
 */
import { Columns3 } from 'lucide-react';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

export interface ColumnChoice {
  id: string;
  label: string;
  visible: boolean;
}

export default function ColumnMenu({
  columns,
  label,
  onToggle,
  onShowAll,
}: {
  columns: readonly ColumnChoice[];
  label: string;
  onToggle: (id: string, visible: boolean) => void;
  onShowAll: () => void;
}) {
  const visible = columns.filter((c) => c.visible).length;
  return (
    <DropdownMenu defaultOpen>
      <DropdownMenuTrigger asChild>
        <Button size="sm" variant="ghost" aria-label={label}>
          <Columns3 className="size-3.5" aria-hidden />
          Columns
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>Show columns</DropdownMenuLabel>
        {columns.map((column) => (
          <DropdownMenuCheckboxItem
            key={column.id}
            checked={column.visible}
            // The last visible column stays: a table of no columns helps nobody.
            disabled={column.visible && visible === 1}
            onCheckedChange={(v) => onToggle(column.id, v === true)}
            onSelect={(e) => e.preventDefault()}
          >
            {column.label}
          </DropdownMenuCheckboxItem>
        ))}
        {visible < columns.length && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={onShowAll}>Show all columns</DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
