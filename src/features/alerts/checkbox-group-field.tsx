/**
 * A form-kit field holding a list of chosen values, shown as checkboxes (the statuses a session rule watches,
 * the settings a change rule watches, the webhooks a rule delivers to). The shell gives it its label,
 * description, count and error like every other field.
 */
import { useController, useFormContext } from 'react-hook-form';
import { FieldShell, type FieldProps } from '@/components/form';

export function CheckboxGroupField({
  options,
  ...field
}: FieldProps & { options: ReadonlyArray<{ value: string; label: string }> }) {
  const { control } = useFormContext();
  const { field: f } = useController({ control, name: field.name });
  const chosen: string[] = Array.isArray(f.value) ? (f.value as string[]) : [];
  const toggle = (value: string, on: boolean) => {
    const next = on ? [...chosen, value] : chosen.filter((v) => v !== value);
    // Kept in the options' order, so the body does not depend on the order of clicks.
    f.onChange(options.map((o) => o.value).filter((v) => next.includes(v)));
  };
  return (
    <FieldShell {...field} counted={false}>
      {(aria) => (
        <div
          id={aria.id}
          role="group"
          aria-label={typeof field.label === 'string' ? field.label : undefined}
          aria-describedby={aria['aria-describedby']}
          aria-invalid={aria['aria-invalid']}
          className="flex flex-wrap gap-x-4 gap-y-1.5"
        >
          {options.map((o, i) => (
            <label key={o.value} className="inline-flex items-center gap-2 text-sm">
              <input
                ref={i === 0 ? f.ref : undefined}
                type="checkbox"
                className="size-4 accent-accent"
                checked={chosen.includes(o.value)}
                onChange={(e) => toggle(o.value, e.target.checked)}
                onBlur={f.onBlur}
              />
              {o.label}
            </label>
          ))}
        </div>
      )}
    </FieldShell>
  );
}
