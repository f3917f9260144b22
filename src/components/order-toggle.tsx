/** Newest first / oldest first: the `order` filter of a time-ordered list, as two pressed-state buttons. */
import { ArrowDownWideNarrow, ArrowUpNarrowWide } from 'lucide-react';
import { useId } from 'react';
import { Button } from './ui/button';

export type ListOrder = 'asc' | 'desc';

export function OrderToggle({ value, onChange }: { value: ListOrder; onChange: (order: ListOrder) => void }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <span className="text-sm font-medium" id={id}>
        Order
      </span>
      <div role="group" aria-labelledby={id} className="flex gap-1">
        <Button
          size="sm"
          variant={value === 'desc' ? 'primary' : 'secondary'}
          aria-pressed={value === 'desc'}
          onClick={() => onChange('desc')}
        >
          <ArrowDownWideNarrow className="size-3.5" aria-hidden />
          Newest first
        </Button>
        <Button
          size="sm"
          variant={value === 'asc' ? 'primary' : 'secondary'}
          aria-pressed={value === 'asc'}
          onClick={() => onChange('asc')}
        >
          <ArrowUpNarrowWide className="size-3.5" aria-hidden />
          Oldest first
        </Button>
      </div>
    </div>
  );
}
