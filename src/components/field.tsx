/** One accessible form field: label, control, hint (documented limits) and error, wired with aria attributes. */
import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface FieldProps {
  label: ReactNode;
  /** The documented limit or format, shown before the server has a say. */
  hint?: ReactNode;
  error?: string | undefined;
  required?: boolean;
  className?: string;
  children: ReactElement<Record<string, unknown>>;
}

export function Field({ label, hint, error, required, className, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const control = isValidElement(children)
    ? cloneElement(children, {
        id: (children.props.id as string | undefined) ?? id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
        'aria-required': required || undefined,
      })
    : children;
  return (
    <div className={cn('flex flex-col gap-1', className)}>
      <label htmlFor={(children.props.id as string | undefined) ?? id} className="text-sm font-medium">
        {label}
        {required && <span className="text-danger"> *</span>}
      </label>
      {control}
      {hint && (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} role="alert" className="text-xs font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

export const inputClass =
  'h-9 w-full rounded-md border border-line bg-surface px-2.5 text-sm text-fg placeholder:text-muted focus:border-accent focus:outline-2 focus:outline-accent/30 aria-[invalid=true]:border-danger';
export const textareaClass =
  'min-h-24 w-full rounded-md border border-line bg-surface px-2.5 py-2 text-sm text-fg placeholder:text-muted focus:border-accent focus:outline-2 focus:outline-accent/30 aria-[invalid=true]:border-danger';
