/**
 * One labelled choice in a screen's filters (a guardrail, a role, an organization, a time range): the visible
 * label above the select, tied to it, at the width the screen gives it. Inside a folded filter sheet
 * (`FilterBar`'s `narrow`) it takes the sheet's width.
 */
import { useId, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Select, type SelectOption } from './ui/select';

export function FilterSelect({
  label,
  value,
  options,
  onValueChange,
  placeholder,
  disabled,
  className = 'w-full sm:w-56',
}: {
  label: ReactNode;
  value: string;
  options: readonly SelectOption[];
  onValueChange: (value: string) => void;
  placeholder?: ReactNode;
  disabled?: boolean;
  /** The field's width (the label and the select), e.g. `w-full sm:w-44`. */
  className?: string;
}) {
  const id = useId();
  return (
    <div className={cn('flex flex-col gap-1', className)}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <Select
        id={id}
        value={value}
        options={options}
        onValueChange={onValueChange}
        placeholder={placeholder}
        disabled={disabled}
      />
    </div>
  );
}
