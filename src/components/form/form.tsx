/**
 * The form kit's `<Form>`: a form is its fields and its schema. It validates with react-hook-form and
 * `zodResolver` over the contract's own request schema (src/api/), puts a 422's errors on the fields they
 * name and the rest on a form-level alert, moves focus to the first invalid field, shows the pending state,
 * and clears write-only secrets once a submit succeeded.
 *
 *   <Form schema={KnowledgeNoteBody} defaultValues={…} toBody={toBody} onSubmit={(body) => save(body)}
 *     aria-label="New note" actions={<SubmitButton pendingLabel="Saving…">Create note</SubmitButton>}>
 *     <TextField name="name" label="Name" />
 *   </Form>
 *
 * `toBody` turns the form's values into the request body when they differ (an empty optional field left
 * out, a "no folder" choice sent as null); validation runs on the body, so the schema is never copied. The
 * react-hook-form methods are the second argument of `onSubmit`, the argument of a function child, and
 * `useFormContext()` in any descendant.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  FormProvider,
  useForm,
  useFormState,
  type DefaultValues,
  type FieldValues,
  type Path,
  type PathValue,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { z } from 'zod';
import { ProblemView } from '@/components/problem-view';
import { Button, type ButtonProps } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { applyServerErrors, fieldFor } from './server-errors';

interface FormKit {
  schema: z.core.$ZodType;
  /** A field announces the path it shows (and whether it is a write-only secret); returns its goodbye. */
  registerField: (name: string, options: { secret: boolean }) => () => void;
}

const FormKitContext = createContext<FormKit | null>(null);

export function useFormKit(): FormKit {
  const kit = useContext(FormKitContext);
  if (!kit) throw new Error('A form-kit field is used outside <Form>');
  return kit;
}

export interface FormProps<S extends z.ZodType, V extends FieldValues> {
  /** The contract's request schema. */
  schema: S;
  defaultValues: DefaultValues<V>;
  /** The request body of the form's values, when they differ; keep it a module-level function. */
  toBody?: (values: V) => z.input<S>;
  /** Sends the body. A rejection is shown on the fields (422) or the form-level alert. */
  onSubmit: (body: z.input<S>, form: UseFormReturn<V>) => Promise<unknown> | void;
  children: ReactNode | ((form: UseFormReturn<V>) => ReactNode);
  /** Buttons after the form-level alert, e.g. a `SubmitButton`. */
  actions?: ReactNode;
  className?: string;
  id?: string;
  'aria-label'?: string;
}

/** Every error message in react-hook-form's nested errors, with its dotted path. */
export function errorLeaves(node: unknown, path = ''): Array<[string, string]> {
  if (!node || typeof node !== 'object') return [];
  const out: Array<[string, string]> = [];
  const message = (node as { message?: unknown }).message;
  if (path && typeof message === 'string' && message) out.push([path, message]);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'ref' || key === 'types' || key === 'message' || key === 'type') continue;
    out.push(...errorLeaves(value, path ? `${path}.${key}` : key));
  }
  return out;
}

export function Form<S extends z.ZodType, V extends FieldValues = z.input<S> & FieldValues>({
  schema,
  defaultValues,
  toBody,
  onSubmit,
  children,
  actions,
  className,
  id,
  'aria-label': ariaLabel,
}: FormProps<S, V>) {
  const resolver = useMemo(() => {
    const validated = toBody ? z.preprocess((values) => toBody(values as V), schema) : schema;
    // raw: the submit handler gets the form's values and sends toBody(values), the body as the contract types it.
    return zodResolver(validated as unknown as z.ZodType<V, V>, undefined, { raw: true }) as unknown as Resolver<V>;
  }, [schema, toBody]);
  // onTouched: a field is checked when left, then as it changes; a limit is checked as soon as it is crossed.
  const form = useForm<V>({ defaultValues, resolver, mode: 'onTouched', shouldFocusError: false });
  // The fields on screen: which paths they show, which are write-only secrets. Mutable, never re-rendering.
  const [fields] = useState(() => new Map<string, { secret: boolean; mounted: number }>());
  const [alert, setAlert] = useState<unknown>(null);
  /** Set by a failed submit: focus the first invalid control once its errors are on screen. */
  const focusPending = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);

  const kit = useMemo<FormKit>(
    () => ({
      schema,
      registerField: (name, { secret }) => {
        const entry = fields.get(name);
        fields.set(name, { secret, mounted: (entry?.mounted ?? 0) + 1 });
        return () => {
          const e = fields.get(name);
          if (!e || e.mounted <= 1) fields.delete(name);
          else e.mounted -= 1;
        };
      },
    }),
    [schema, fields],
  );
  const shownBy = (path: string) => fieldFor(path, fields.keys());

  // react-hook-form publishes a submit's errors after its handlers ran, in the same update that ends
  // `isSubmitting`: once that has rendered, focus the first invalid control in page order (or the alert).
  const { isSubmitting, submitCount } = form.formState;
  useEffect(() => {
    if (!focusPending.current || isSubmitting) return;
    focusPending.current = false;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (first) first.focus();
    else formRef.current?.querySelector<HTMLElement>('[data-form-alert]')?.focus();
  }, [isSubmitting, submitCount, alert]);

  const onValid = async (values: V) => {
    setAlert(null);
    try {
      await onSubmit(toBody ? toBody(values) : (values as z.input<S>), form);
    } catch (error) {
      setAlert(applyServerErrors(error, form.setError, shownBy));
      focusPending.current = true;
      return;
    }
    // Write-only secrets never outlive a successful submit.
    for (const [name, f] of fields)
      if (f.secret) form.setValue(name as Path<V>, '' as PathValue<V, Path<V>>, { shouldDirty: false });
  };
  const onInvalid = () => {
    setAlert(null);
    focusPending.current = true;
  };

  return (
    <FormProvider {...form}>
      <FormKitContext.Provider value={kit}>
        <form
          ref={formRef}
          id={id}
          aria-label={ariaLabel}
          noValidate
          onSubmit={(e) => void form.handleSubmit(onValid, onInvalid)(e)}
          aria-busy={isSubmitting || undefined}
          className={cn('flex flex-col gap-4', className)}
        >
          {typeof children === 'function' ? children(form) : children}
          <FormAlert error={alert} shownBy={(path) => shownBy(path) !== null} />
          {actions}
        </form>
      </FormKitContext.Provider>
    </FormProvider>
  );
}

/**
 * The form-level alert: a failure no field shows (network, 403, 409, a 422 naming no field), and errors of
 * the schema that no field shows (a rule across fields, a field the form leaves out).
 */
function FormAlert({ error, shownBy }: { error: unknown; shownBy: (path: string) => boolean }) {
  const { errors, submitCount } = useFormState();
  const stray = submitCount > 0 ? errorLeaves(errors).filter(([path]) => !shownBy(path)) : [];
  if (error === null && stray.length === 0) return null;
  return (
    <div data-form-alert tabIndex={-1} className="flex flex-col gap-2 outline-none">
      {error !== null && <ProblemView error={error} />}
      {stray.length > 0 && (
        <div role="alert" className="rounded-lg border border-danger/40 bg-danger/5 p-4 text-sm">
          <p className="font-semibold text-danger">Some values cannot be sent</p>
          <ul className="mt-1 list-disc pl-5 text-fg">
            {stray.map(([path, message]) => (
              <li key={path}>
                <span className="font-mono text-xs">{path}</span>: {message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/** The submit button: disabled and relabelled while the form is being sent. */
export function SubmitButton({
  children,
  pendingLabel,
  disabled,
  variant = 'primary',
  ...props
}: Omit<ButtonProps, 'type'> & { pendingLabel?: ReactNode }) {
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" variant={variant} disabled={disabled || isSubmitting} {...props}>
      {isSubmitting && pendingLabel ? pendingLabel : children}
    </Button>
  );
}
