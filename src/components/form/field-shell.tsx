/**
 * What every form-kit field shows around its control: the label (with a mark when the API requires the
 * field), a description, the documented limit as a live count ("1,234 / 100,000", "3 / 50 tags"), and its
 * error; the control gets `id`, `aria-describedby`, `aria-invalid` and `aria-required` wired to them. The
 * limit is read from the contract's schema (`z.string().max(n)`, `z.array().max(n)`), never restated.
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { get, useFormContext, useFormState, useWatch } from 'react-hook-form';
import { cn } from '@/lib/cn';
import { formatNumber } from '@/lib/format';
import { errorLeaves, useFormKit } from './form';
import { isRequired, maxOf } from './schema';

export interface FieldProps {
  /** The field's path in the form values, e.g. `prompt` or `session_secrets.0.key`. */
  name: string;
  label: ReactNode;
  description?: ReactNode;
  /** Whether to mark the field required; by default, whether the schema requires it. */
  required?: boolean;
  /** What the count counts, when not the value's length (e.g. the lines of a one-per-line list). */
  countOf?: (value: unknown) => number;
  /** What a count counts, after "3 / 50" (e.g. "tags"); characters go unsaid. */
  unit?: string;
  /** Show the count before anything is typed (default); false for repeated rows, where it would be noise. */
  countWhenEmpty?: boolean;
  className?: string;
}

export interface ControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  'aria-required'?: boolean;
}

/** The message of a field's error; `deep`: or else the first message of its items (a list's `tags.3`). */
export function messageOf(error: unknown, deep: boolean): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { message?: unknown; root?: { message?: unknown } };
  if (typeof e.message === 'string' && e.message) return e.message;
  if (typeof e.root?.message === 'string' && e.root.message) return e.root.message;
  return deep ? errorLeaves(error)[0]?.[1] : undefined;
}

export interface FieldShellProps extends FieldProps {
  /** `inline`: the control before its label (checkbox, switch). */
  layout?: 'stack' | 'inline';
  /** Whether the value has a length worth counting (not for a choice among options). */
  counted?: boolean;
  /** Shown on the field: its own error only (false), or also its items' (a list shown as one control). */
  deepErrors?: boolean;
  secret?: boolean;
  children: (control: ControlProps) => ReactNode;
}

export function FieldShell({
  name,
  label,
  description,
  required,
  className,
  layout = 'stack',
  unit,
  countWhenEmpty = true,
  deepErrors = true,
  secret = false,
  counted = true,
  countOf,
  children,
}: FieldShellProps) {
  const kit = useFormKit();
  const { control, trigger } = useFormContext();
  const { errors } = useFormState({ control, name });
  const value: unknown = useWatch({ control, name });
  const id = useId();
  const max = counted ? maxOf(kit.schema, name) : undefined;
  const count = countOf ? countOf(value) : typeof value === 'string' || Array.isArray(value) ? value.length : undefined;
  const over = max !== undefined && count !== undefined && count > max;
  const error = messageOf(get(errors, name), deepErrors);
  const isReq = required ?? isRequired(kit.schema, name);
  const showCount = max !== undefined && count !== undefined && (countWhenEmpty || count > 0);

  useEffect(() => kit.registerField(name, { secret }), [kit, name, secret]);

  // The limit is checked the moment it is crossed (either way), not only when the field is left.
  const crossed = useRef(false);
  useEffect(() => {
    if (!over && !crossed.current) return;
    crossed.current = true;
    void trigger(name);
  }, [over, name, trigger]);

  const ids = { control: `${id}control`, description: `${id}description`, count: `${id}count`, error: `${id}error` };
  const describedBy =
    [description ? ids.description : null, showCount ? ids.count : null, error ? ids.error : null]
      .filter(Boolean)
      .join(' ') || undefined;
  const controlProps: ControlProps = {
    id: ids.control,
    'aria-describedby': describedBy,
    'aria-invalid': error ? true : undefined,
    'aria-required': isReq || undefined,
  };

  const labelEl = (
    <label htmlFor={ids.control} className="text-sm font-medium">
      {label}
      {isReq && (
        <span className="text-danger" aria-hidden>
          {' '}
          *
        </span>
      )}
    </label>
  );
  const countEl = showCount ? (
    <span
      id={ids.count}
      className={cn('shrink-0 text-xs text-muted tabular-nums', over && 'font-medium text-danger')}
      data-over={over || undefined}
    >
      {`${formatNumber(count)} / ${formatNumber(max)}${unit ? ` ${unit}` : ''}`}
    </span>
  ) : null;
  const descriptionEl = description ? (
    <p id={ids.description} className="text-xs text-muted">
      {description}
    </p>
  ) : null;
  const errorEl = error ? (
    <p id={ids.error} role="alert" className="text-xs font-medium text-danger first-letter:uppercase">
      {error}
    </p>
  ) : null;

  if (layout === 'inline')
    return (
      <div className={cn('flex items-start gap-2.5', className)}>
        <div className="flex h-5 items-center">{children(controlProps)}</div>
        <div className="flex min-w-0 flex-col gap-0.5">
          {labelEl}
          {descriptionEl}
          {errorEl}
        </div>
      </div>
    );
  return (
    <div className={cn('flex min-w-0 flex-col gap-1', className)}>
      <div className="flex items-baseline justify-between gap-2">
        {labelEl}
        {countEl}
      </div>
      {children(controlProps)}
      {descriptionEl}
      {errorEl}
    </div>
  );
}
