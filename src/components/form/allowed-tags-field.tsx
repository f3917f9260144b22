/**
 * A list of tags chosen from a fixed set (an organization's allowed session tags while tag validation is on):
 * the chosen tags as removable chips and a searchable picker of the others. Nothing outside the set can be
 * added; a search that matches none says so. A chosen tag outside the set (an earlier value, or one the
 * server refused) stays visible, marked invalid, until removed. Used inside `<Form>`, like `TagsField`.
 */
import { X } from 'lucide-react';
import { Controller, get, useFormContext, useFormState } from 'react-hook-form';
import { Combobox } from '@/components/ui/combobox';
import { cn } from '@/lib/cn';
import { FieldShell, type FieldProps } from './field-shell';

export function AllowedTagsField({
  allowed,
  itemName = 'tag',
  unit = 'tags',
  ...field
}: FieldProps & { allowed: readonly string[]; itemName?: string; unit?: string }) {
  const { control } = useFormContext();
  const { errors } = useFormState({ name: field.name });
  const itemErrors = get(errors, field.name) as unknown;
  const allowedSet = new Set(allowed);
  return (
    <FieldShell {...field} unit={unit}>
      {(aria) => (
        <Controller
          control={control}
          name={field.name}
          render={({ field: f }) => {
            const tags: string[] = Array.isArray(f.value) ? (f.value as string[]) : [];
            const invalidAt = (i: number, t: string) =>
              !allowedSet.has(t) || (Array.isArray(itemErrors) && itemErrors[i] != null);
            const options = allowed.filter((t) => !tags.includes(t)).map((t) => ({ value: t, label: t }));
            return (
              <div className="flex flex-col gap-1.5">
                {tags.length > 0 && (
                  <ul className="flex flex-wrap gap-1.5" aria-label={`${itemName}s chosen`}>
                    {tags.map((t, i) => (
                      <li
                        key={t}
                        className={cn(
                          'inline-flex items-center gap-1 rounded-full border border-line bg-surface-2 py-0.5 pr-1 pl-2 text-xs font-medium',
                          invalidAt(i, t) && 'border-danger text-danger',
                        )}
                      >
                        {t}
                        {!allowedSet.has(t) && <span className="sr-only"> (not allowed)</span>}
                        <button
                          type="button"
                          aria-label={`Remove ${itemName} ${t}`}
                          className="rounded-full p-0.5 hover:text-danger focus-visible:outline-2 focus-visible:outline-accent"
                          onClick={() => f.onChange(tags.filter((x) => x !== t))}
                        >
                          <X className="size-3" aria-hidden />
                        </button>
                      </li>
                    ))}
                  </ul>
                )}
                <Combobox
                  ref={f.ref}
                  value=""
                  onValueChange={(v) => {
                    if (v && allowedSet.has(v) && !tags.includes(v)) f.onChange([...tags, v]);
                  }}
                  onBlur={f.onBlur}
                  options={options}
                  placeholder={
                    options.length > 0 ? `Add an allowed ${itemName}` : `Every allowed ${itemName} is chosen`
                  }
                  searchLabel={`Search allowed ${itemName}s`}
                  emptyText={`No allowed ${itemName} matches: only the organization's allowed ${itemName}s can be used`}
                  disabled={options.length === 0}
                  {...aria}
                />
              </div>
            );
          }}
        />
      )}
    </FieldShell>
  );
}
