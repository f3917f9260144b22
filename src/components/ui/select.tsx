/**
 * A select (Radix Select): a `button role="combobox"` that opens a listbox of options, typeahead and arrow keys
 * included. Radix reserves the empty value for "nothing chosen", so an option whose value is `''` ("All",
 * "Organization default", "No folder") is carried under an internal value and handed back as `''`.
 *
 *   <Select id={id} value={mode} onValueChange={setMode}
 *     options={[{ value: '', label: 'Organization default' }, { value: 'fast', label: 'fast' }]} />
 *
 * The parts (`SelectRoot`, `SelectTrigger`, `SelectContent`, `SelectItem`) are exported for unusual layouts.
 */
import { Select as SelectPrimitive } from 'radix-ui';
import { Check, ChevronDown, ChevronUp } from 'lucide-react';
import { forwardRef, type ComponentPropsWithoutRef, type ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** The value that stands for `''` inside Radix, which does not allow an empty item value. */
const NONE = '__none__';
const toRadix = (v: string) => (v === '' ? NONE : v);
const fromRadix = (v: string) => (v === NONE ? '' : v);

export const SelectRoot = SelectPrimitive.Root;
export const SelectValue = SelectPrimitive.Value;
export const SelectGroup = SelectPrimitive.Group;

export type SelectSize = 'sm' | 'md';

const TRIGGER_SIZES: Record<SelectSize, string> = {
  sm: 'h-7 px-2 text-xs',
  md: 'h-9 px-2.5 text-sm',
};

export const SelectTrigger = forwardRef<
  HTMLButtonElement,
  ComponentPropsWithoutRef<typeof SelectPrimitive.Trigger> & { size?: SelectSize }
>(function SelectTrigger({ className, children, size = 'md', ...props }, ref) {
  return (
    <SelectPrimitive.Trigger
      ref={ref}
      className={cn(
        'inline-flex w-full min-w-0 items-center justify-between gap-2 rounded-md border border-line bg-surface text-left text-fg',
        'focus-visible:border-accent focus-visible:outline-2 focus-visible:outline-accent/30 aria-[invalid=true]:border-danger',
        'disabled:cursor-not-allowed disabled:text-muted data-[placeholder]:text-muted',
        TRIGGER_SIZES[size],
        className,
      )}
      {...props}
    >
      <span className="min-w-0 truncate">{children}</span>
      <SelectPrimitive.Icon asChild>
        <ChevronDown className="size-3.5 shrink-0 text-muted" aria-hidden />
      </SelectPrimitive.Icon>
    </SelectPrimitive.Trigger>
  );
});

export const SelectContent = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof SelectPrimitive.Content>>(
  function SelectContent({ className, children, position = 'popper', ...props }, ref) {
    return (
      <SelectPrimitive.Portal>
        <SelectPrimitive.Content
          ref={ref}
          position={position}
          sideOffset={4}
          className={cn(
            'relative z-50 max-h-[min(24rem,var(--radix-select-content-available-height))] min-w-[max(8rem,var(--radix-select-trigger-width))] overflow-hidden rounded-md border border-line bg-surface text-fg shadow-lg',
            className,
          )}
          {...props}
        >
          <SelectPrimitive.ScrollUpButton className="flex h-6 items-center justify-center text-muted">
            <ChevronUp className="size-3.5" aria-hidden />
          </SelectPrimitive.ScrollUpButton>
          <SelectPrimitive.Viewport className="p-1">{children}</SelectPrimitive.Viewport>
          <SelectPrimitive.ScrollDownButton className="flex h-6 items-center justify-center text-muted">
            <ChevronDown className="size-3.5" aria-hidden />
          </SelectPrimitive.ScrollDownButton>
        </SelectPrimitive.Content>
      </SelectPrimitive.Portal>
    );
  },
);

export const SelectItem = forwardRef<HTMLDivElement, ComponentPropsWithoutRef<typeof SelectPrimitive.Item>>(
  function SelectItem({ className, children, ...props }, ref) {
    return (
      <SelectPrimitive.Item
        ref={ref}
        className={cn(
          'relative flex cursor-default items-center rounded py-1.5 pr-2 pl-7 text-sm outline-none select-none',
          'data-[disabled]:opacity-50 data-[highlighted]:bg-surface-2 data-[state=checked]:font-medium',
          className,
        )}
        {...props}
      >
        <span className="absolute left-2 flex size-3.5 items-center justify-center">
          <SelectPrimitive.ItemIndicator>
            <Check className="size-3.5 text-accent" aria-hidden />
          </SelectPrimitive.ItemIndicator>
        </span>
        <SelectPrimitive.ItemText>{children}</SelectPrimitive.ItemText>
      </SelectPrimitive.Item>
    );
  },
);

export interface SelectOption {
  /** `''` is allowed: the "no value" / "all" choice. */
  value: string;
  label: ReactNode;
  /** Typeahead text when the label is not plain text. */
  textValue?: string;
  disabled?: boolean;
}

export interface SelectProps {
  value: string;
  onValueChange: (value: string) => void;
  options: readonly SelectOption[];
  /** Shown while the value matches no option (e.g. `''` without a `''` option). */
  placeholder?: ReactNode;
  id?: string;
  name?: string;
  disabled?: boolean;
  required?: boolean;
  size?: SelectSize;
  className?: string;
  onBlur?: () => void;
  'aria-label'?: string;
  'aria-labelledby'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  'aria-required'?: boolean;
}

export const Select = forwardRef<HTMLButtonElement, SelectProps>(function Select(
  { value, onValueChange, options, placeholder, name, disabled, required, size, className, onBlur, ...aria },
  ref,
) {
  const hasNone = options.some((o) => o.value === '');
  return (
    <SelectRoot
      value={value === '' && !hasNone ? '' : toRadix(value)}
      onValueChange={(v) => onValueChange(fromRadix(v))}
      name={name}
      disabled={disabled}
      required={required}
    >
      <SelectTrigger ref={ref} size={size} className={className} onBlur={onBlur} {...aria}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {options.map((o) => (
          <SelectItem key={o.value || NONE} value={toRadix(o.value)} textValue={o.textValue} disabled={o.disabled}>
            {o.label}
          </SelectItem>
        ))}
      </SelectContent>
    </SelectRoot>
  );
});
