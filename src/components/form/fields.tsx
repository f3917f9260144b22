/**
 * The form kit's fields. Each takes the field's `name` (its path in the form values), a `label`, an optional
 * `description` and `required` (by default read from the contract's schema), and renders the label, the live
 * count against the schema's limit, the description and the error around a control wired to them. They are
 * used inside `<Form>`.
 */
import { Plus, Trash2, X } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ClipboardEvent, type KeyboardEvent, type ReactNode } from 'react';
import {
  Controller,
  get,
  useFieldArray,
  useFormContext,
  useFormState,
  useWatch,
  type ControllerRenderProps,
  type RegisterOptions,
  type UseFormRegisterReturn,
} from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Combobox, type ComboboxOption } from '@/components/ui/combobox';
import { Input } from '@/components/ui/input';
import { Select, type SelectOption } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { cn } from '@/lib/cn';
import { formatNumber, formatUtc } from '@/lib/format';
import { fromLocalInput, toLocalInput } from '@/lib/local-date-time';
import { FieldShell, messageOf, type ControlProps, type FieldProps, type FieldShellProps } from './field-shell';
import { useFormKit } from './form';
import { maxOf } from './schema';

// ---------------------------------------------------------------- wiring

/** A field whose control is a native input registered with react-hook-form (text, number, secret). */
function RegisteredField({
  field,
  options,
  secret,
  render,
}: {
  field: FieldProps;
  options?: RegisterOptions;
  secret?: boolean;
  render: (props: ControlProps & UseFormRegisterReturn) => ReactNode;
}) {
  const { register } = useFormContext();
  return (
    <FieldShell {...field} secret={secret}>
      {(control) => render({ ...register(field.name, options), ...control })}
    </FieldShell>
  );
}

/** A field whose control is a component with a value and onChange (select, combobox, date-time, tags). */
function ControlledField({
  field,
  shell,
  render,
}: {
  field: FieldProps;
  shell?: Omit<Partial<FieldShellProps>, 'children'>;
  render: (f: ControllerRenderProps, control: ControlProps) => ReactNode;
}) {
  const { control } = useFormContext();
  return (
    <FieldShell {...field} {...shell}>
      {(aria) => <Controller control={control} name={field.name} render={({ field: f }) => <>{render(f, aria)}</>} />}
    </FieldShell>
  );
}

// ---------------------------------------------------------------- text

export function TextField({
  type = 'text',
  placeholder,
  autoComplete,
  inputClassName,
  ...field
}: FieldProps & {
  type?: 'text' | 'email' | 'url' | 'search' | 'tel';
  placeholder?: string;
  autoComplete?: string;
  inputClassName?: string;
}) {
  return (
    <RegisteredField
      field={field}
      render={(props) => (
        <Input
          {...props}
          type={type}
          placeholder={placeholder}
          autoComplete={autoComplete}
          className={inputClassName}
        />
      )}
    />
  );
}

export function TextareaField({
  placeholder,
  rows,
  textareaClassName,
  ...field
}: FieldProps & { placeholder?: string; rows?: number; textareaClassName?: string }) {
  return (
    <RegisteredField
      field={field}
      render={(props) => <Textarea {...props} rows={rows} placeholder={placeholder} className={textareaClassName} />}
    />
  );
}

const NUMBER_OPTIONS: RegisterOptions = {
  setValueAs: (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v)),
};

/** A number; an empty box is `undefined` in the form values (left out of the body). */
export function NumberField({
  min,
  max,
  step,
  placeholder,
  ...field
}: FieldProps & { min?: number; max?: number; step?: number | 'any'; placeholder?: string }) {
  return (
    <RegisteredField
      field={field}
      options={NUMBER_OPTIONS}
      render={(props) => (
        <Input
          {...props}
          type="number"
          inputMode={step === 'any' ? 'decimal' : 'numeric'}
          min={min}
          max={max}
          step={step}
          placeholder={placeholder}
          className="w-40"
        />
      )}
    />
  );
}

/**
 * A write-only secret: masked, offered to no password manager, never shown prefilled (a value in the
 * defaults is dropped), and cleared once the form was sent successfully.
 */
export function SecretField({
  masked = true,
  placeholder,
  ...field
}: FieldProps & { masked?: boolean; placeholder?: string }) {
  const { getValues, setValue } = useFormContext();
  const dropped = useRef(false);
  useEffect(() => {
    if (dropped.current) return;
    dropped.current = true;
    if (getValues(field.name)) setValue(field.name, '');
  }, [field.name, getValues, setValue]);
  return (
    <RegisteredField
      field={field}
      secret
      render={(props) => (
        <Input
          {...props}
          type={masked ? 'password' : 'text'}
          autoComplete="new-password"
          spellCheck={false}
          placeholder={placeholder}
        />
      )}
    />
  );
}

// ---------------------------------------------------------------- choices

export function SelectField({
  options,
  placeholder,
  disabled,
  ...field
}: FieldProps & { options: readonly SelectOption[]; placeholder?: ReactNode; disabled?: boolean }) {
  return (
    <ControlledField
      field={field}
      shell={{ counted: false }}
      render={(f, aria) => (
        <Select
          ref={f.ref}
          name={f.name}
          value={typeof f.value === 'string' ? f.value : ''}
          onValueChange={f.onChange}
          onBlur={f.onBlur}
          options={options}
          placeholder={placeholder}
          disabled={disabled}
          {...aria}
        />
      )}
    />
  );
}

/** A searchable select (`Combobox`), for lists too long to scroll through. */
export function ComboboxField({
  options,
  placeholder,
  searchLabel,
  emptyText,
  disabled,
  ...field
}: FieldProps & {
  options: readonly ComboboxOption[];
  placeholder?: ReactNode;
  searchLabel: string;
  emptyText?: ReactNode;
  disabled?: boolean;
}) {
  return (
    <ControlledField
      field={field}
      shell={{ counted: false }}
      render={(f, aria) => (
        <Combobox
          ref={f.ref}
          value={typeof f.value === 'string' ? f.value : ''}
          onValueChange={f.onChange}
          onBlur={f.onBlur}
          options={options}
          placeholder={placeholder}
          searchLabel={searchLabel}
          emptyText={emptyText}
          disabled={disabled}
          {...aria}
        />
      )}
    />
  );
}

type ValueDescription = ReactNode | ((checked: boolean) => ReactNode);

function BooleanField({
  kind,
  description,
  ...field
}: Omit<FieldProps, 'description'> & { kind: 'checkbox' | 'switch'; description?: ValueDescription }) {
  const checked = useWatch({ name: field.name }) === true;
  return (
    <ControlledField
      field={{ ...field, description: typeof description === 'function' ? description(checked) : description }}
      shell={{ layout: 'inline', counted: false, required: field.required ?? false }}
      render={(f, aria) => {
        const props = {
          ref: f.ref,
          name: f.name,
          checked: f.value === true,
          onCheckedChange: (c: boolean | 'indeterminate') => f.onChange(c === true),
          onBlur: f.onBlur,
          ...aria,
        };
        return kind === 'switch' ? <Switch {...props} /> : <Checkbox {...props} />;
      }}
    />
  );
}

/** A yes/no value sent with the form. `description` may depend on the value. */
export function CheckboxField(props: Omit<FieldProps, 'description'> & { description?: ValueDescription }) {
  return <BooleanField kind="checkbox" {...props} />;
}

/** An on/off setting. `description` may depend on the value ("Agents use this note."). */
export function SwitchField(props: Omit<FieldProps, 'description'> & { description?: ValueDescription }) {
  return <BooleanField kind="switch" {...props} />;
}

// ---------------------------------------------------------------- date-time

/**
 * A date and time typed in local time, held in the form as Unix seconds (the API's timestamps), with the UTC
 * value shown beside it. An empty or incomplete box is `null`.
 */
export function DateTimeField(field: FieldProps) {
  return (
    <ControlledField
      field={field}
      shell={{ counted: false }}
      render={(f, aria) => (
        <LocalDateTimeInput
          ref={f.ref}
          value={typeof f.value === 'number' ? f.value : undefined}
          onChange={f.onChange}
          onBlur={f.onBlur}
          {...aria}
        />
      )}
    />
  );
}

function LocalDateTimeInput({
  value,
  onChange,
  onBlur,
  ref,
  ...aria
}: ControlProps & {
  value: number | undefined;
  onChange: (seconds: number | null) => void;
  onBlur: () => void;
  ref: (el: HTMLInputElement | null) => void;
}) {
  const [text, setText] = useState(() => toLocalInput(value));
  const [shown, setShown] = useState(value);
  // A value set from outside (reset, setValue) replaces what is typed, unless it is what is typed.
  if (value !== shown) {
    setShown(value);
    if (fromLocalInput(text) !== value) setText(toLocalInput(value));
  }
  const utcId = useId();
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <Input
        ref={ref}
        type="datetime-local"
        step={1}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          const seconds = fromLocalInput(e.target.value);
          setShown(seconds);
          onChange(seconds ?? null);
        }}
        onBlur={onBlur}
        className="w-56"
        {...aria}
        aria-describedby={[aria['aria-describedby'], utcId].filter(Boolean).join(' ')}
      />
      <span id={utcId} className="font-mono text-xs text-muted">
        {value === undefined ? 'UTC —' : `UTC ${formatUtc(value)}`}
      </span>
    </div>
  );
}

// ---------------------------------------------------------------- tags

const splitTags = (text: string) =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

/**
 * A list of short strings as chips: Enter or a comma adds what is typed (a pasted "a, b" adds both),
 * Backspace in the empty box removes the last chip, leaving the box keeps what is typed. The count shows
 * "3 / 50 tags" against the schema's `z.array().max(n)`.
 */
export function TagsField({
  itemName = 'tag',
  unit = 'tags',
  placeholder,
  ...field
}: FieldProps & { itemName?: string; unit?: string; placeholder?: string }) {
  const { errors } = useFormState({ name: field.name });
  const itemErrors = get(errors, field.name) as unknown;
  return (
    <ControlledField
      field={field}
      shell={{ unit }}
      render={(f, aria) => (
        <TagsInput
          inputRef={f.ref}
          tags={Array.isArray(f.value) ? (f.value as string[]) : typeof f.value === 'string' ? splitTags(f.value) : []}
          onChange={f.onChange}
          onBlur={f.onBlur}
          itemName={itemName}
          placeholder={placeholder}
          invalidAt={(i) => Array.isArray(itemErrors) && itemErrors[i] !== undefined && itemErrors[i] !== null}
          {...aria}
        />
      )}
    />
  );
}

function TagsInput({
  tags,
  onChange,
  onBlur,
  inputRef,
  itemName,
  placeholder,
  invalidAt,
  ...aria
}: ControlProps & {
  tags: string[];
  onChange: (tags: string[]) => void;
  onBlur: () => void;
  inputRef: (el: HTMLInputElement | null) => void;
  itemName: string;
  placeholder?: string;
  invalidAt: (index: number) => boolean;
}) {
  const [draft, setDraft] = useState('');
  const add = (text: string) => {
    const next = splitTags(text).filter((t, i, all) => !tags.includes(t) && all.indexOf(t) === i);
    if (next.length) onChange([...tags, ...next]);
    setDraft('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if ((e.key === 'Enter' || e.key === ',') && draft.trim()) {
      e.preventDefault();
      add(draft);
    } else if (e.key === ',') {
      e.preventDefault();
    } else if (e.key === 'Backspace' && draft === '' && tags.length > 0) {
      e.preventDefault();
      onChange(tags.slice(0, -1));
    }
  };
  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const text = e.clipboardData.getData('text');
    if (!text.includes(',')) return;
    e.preventDefault();
    add(draft + text);
  };
  return (
    <div
      className={cn(
        'flex min-h-9 w-full flex-wrap items-center gap-1.5 rounded-md border border-line bg-surface px-2 py-1',
        'focus-within:border-accent focus-within:outline-2 focus-within:outline-accent/30',
        aria['aria-invalid'] && 'border-danger',
      )}
    >
      {tags.length > 0 && (
        <ul className="contents" aria-label={`${itemName}s chosen`}>
          {tags.map((t, i) => (
            <li
              key={t}
              className={cn(
                'inline-flex items-center gap-1 rounded-full border border-line bg-surface-2 py-0.5 pr-1 pl-2 text-xs font-medium',
                invalidAt(i) && 'border-danger text-danger',
              )}
            >
              {t}
              <button
                type="button"
                aria-label={`Remove ${itemName} ${t}`}
                className="rounded-full p-0.5 hover:text-danger focus-visible:outline-2 focus-visible:outline-accent"
                onClick={() => onChange(tags.filter((x) => x !== t))}
              >
                <X className="size-3" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        ref={inputRef}
        {...aria}
        value={draft}
        placeholder={tags.length ? undefined : placeholder}
        autoComplete="off"
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onBlur={() => {
          if (draft.trim()) add(draft);
          onBlur();
        }}
        className="h-7 min-w-24 flex-1 bg-transparent text-sm text-fg outline-none placeholder:text-muted"
      />
    </div>
  );
}

// ---------------------------------------------------------------- rows

/**
 * Repeated rows of a key and a value (headers, variables, session secrets), added and removed by the admin,
 * with the count against the schema's `z.array().max(n)` and "Add" disabled at the limit. `secret`: values
 * are write-only (masked, cleared after a successful submit); with `sensitiveName`, each row has its own
 * "Sensitive" checkbox and only sensitive values are masked.
 *
 * Controls are named "<itemLabel> 1 key", "<itemLabel> 1 value"; buttons "Add <item>", "Remove <item> 1".
 */
export function KeyValueField({
  name,
  label,
  description,
  itemLabel,
  unit,
  keyName = 'key',
  valueName = 'value',
  sensitiveName,
  secret = false,
  newRow,
  className,
}: Omit<FieldProps, 'required'> & {
  /** One row's name, capitalised: "Secret", "Header". */
  itemLabel: string;
  /** What the count counts: "secrets". */
  unit?: string;
  keyName?: string;
  valueName?: string;
  sensitiveName?: string;
  secret?: boolean;
  newRow: () => Record<string, unknown>;
}) {
  const kit = useFormKit();
  const { control } = useFormContext();
  const rows = useFieldArray({ control, name });
  const { errors } = useFormState({ control, name });
  const values = useWatch({ control, name }) as Array<Record<string, unknown>> | undefined;
  const max = maxOf(kit.schema, name);
  const error = messageOf(get(errors, name), false);
  const item = itemLabel.toLowerCase();
  const ids = { description: useId(), count: useId(), error: useId() };

  useEffect(() => kit.registerField(name, { secret: false }), [kit, name]);

  return (
    <fieldset
      className={cn('flex flex-col gap-2 rounded-lg border border-line p-3', className)}
      aria-describedby={[
        description ? ids.description : null,
        max !== undefined ? ids.count : null,
        error ? ids.error : null,
      ]
        .filter(Boolean)
        .join(' ')}
    >
      <legend className="px-1 text-sm font-medium">{label}</legend>
      <div className="flex items-baseline justify-between gap-3">
        {description ? (
          <p id={ids.description} className="text-xs text-muted">
            {description}
          </p>
        ) : (
          <span />
        )}
        {max !== undefined && (
          <span id={ids.count} className="shrink-0 text-xs text-muted tabular-nums">
            {`${formatNumber(rows.fields.length)} / ${formatNumber(max)}${unit ? ` ${unit}` : ''}`}
          </span>
        )}
      </div>
      {rows.fields.map((row, i) => {
        const sensitive = sensitiveName ? values?.[i]?.[sensitiveName] !== false : true;
        return (
          <div
            key={row.id}
            role="group"
            aria-label={`${itemLabel} ${i + 1}`}
            className={cn(
              'grid grid-cols-1 items-start gap-2',
              sensitiveName ? 'sm:grid-cols-[1fr_1.4fr_auto_auto]' : 'sm:grid-cols-[1fr_1.4fr_auto]',
            )}
          >
            <TextField
              name={`${name}.${i}.${keyName}`}
              label={`${itemLabel} ${i + 1} key`}
              autoComplete="off"
              countWhenEmpty={false}
            />
            {secret ? (
              <SecretField
                name={`${name}.${i}.${valueName}`}
                label={`${itemLabel} ${i + 1} value`}
                masked={sensitive}
                required={false}
                countWhenEmpty={false}
              />
            ) : (
              <TextField
                name={`${name}.${i}.${valueName}`}
                label={`${itemLabel} ${i + 1} value`}
                required={false}
                countWhenEmpty={false}
              />
            )}
            {sensitiveName && (
              <CheckboxField name={`${name}.${i}.${sensitiveName}`} label="Sensitive" className="pt-7" />
            )}
            <Button
              variant="ghost"
              size="icon"
              className="mt-6"
              aria-label={`Remove ${item} ${i + 1}`}
              onClick={() => rows.remove(i)}
            >
              <Trash2 className="size-4" aria-hidden />
            </Button>
          </div>
        );
      })}
      {error && (
        <p id={ids.error} role="alert" className="text-xs font-medium text-danger first-letter:uppercase">
          {error}
        </p>
      )}
      <Button
        size="sm"
        className="self-start"
        onClick={() => rows.append(newRow())}
        disabled={max !== undefined && rows.fields.length >= max}
      >
        <Plus className="size-3.5" aria-hidden /> Add {item}
      </Button>
    </fieldset>
  );
}
