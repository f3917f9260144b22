/**
 * A local date and time typed as text (`2026-03-01 14:05`): one Tab stop, where the browser's datetime-local
 * input costs seven (month, day, year, hours, minutes, seconds, AM/PM), which made every date filter a long
 * walk for a keyboard. It takes and gives the datetime-local value (`2026-03-01T14:05`, '' for none), so it
 * replaces `<Input type="datetime-local">` with `onValueChange` for `onChange`. What is not a date-time is
 * marked invalid and not given out until it is.
 */
import { forwardRef, useId, useState, type InputHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';
import { parseTypedDateTime } from '@/lib/local-date-time';
import { Input } from './input';

export interface DateTimeInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'type' | 'defaultValue'
> {
  /** The datetime-local value: `YYYY-MM-DDTHH:MM[:SS]`, or '' for none. */
  value: string;
  /** Called with a valid datetime-local value, or '' when the field is emptied. */
  onValueChange: (value: string) => void;
}

const shown = (value: string) => value.replace('T', ' ');

export const DateTimeInput = forwardRef<HTMLInputElement, DateTimeInputProps>(function DateTimeInput(
  {
    value,
    onValueChange,
    className,
    onBlur,
    placeholder = 'YYYY-MM-DD HH:MM',
    'aria-describedby': describedBy,
    ...props
  },
  ref,
) {
  const [text, setText] = useState(() => shown(value));
  const [last, setLast] = useState(value);
  const errorId = useId();
  // A value set from outside (a quick range, Clear, Back) replaces what is typed, unless it is what is typed.
  if (value !== last) {
    setLast(value);
    if (parseTypedDateTime(text) !== value) setText(shown(value));
  }
  const parsed = parseTypedDateTime(text);
  const invalid = parsed === null;
  return (
    <>
      <Input
        {...props}
        ref={ref}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={text}
        aria-invalid={invalid || undefined}
        aria-describedby={[describedBy, invalid ? errorId : undefined].filter(Boolean).join(' ') || undefined}
        onChange={(e) => {
          setText(e.target.value);
          const next = parseTypedDateTime(e.target.value);
          if (next !== null && next !== value) {
            setLast(next);
            onValueChange(next);
          }
        }}
        onBlur={(e) => {
          // A valid date-time is shown the standard way once the admin moves on.
          if (parsed !== null) setText(shown(parsed));
          onBlur?.(e);
        }}
        className={cn('w-44 font-mono tabular-nums', className)}
      />
      {invalid && (
        <span id={errorId} className="sr-only">
          Not a date and time: type it as YYYY-MM-DD HH:MM.
        </span>
      )}
    </>
  );
});
