/**
 * The create / edit page of a Markdown document (a knowledge note, a playbook): the heading, and the form kit
 * over the contract's body schema with Cancel (back to the document, or to the list for a new one) and the
 * submit button. The feature gives the schema, the fields and where a saved document opens.
 */
import { Link, type LinkOptions } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { DefaultValues, FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { Form, SubmitButton } from '../form';
import { PageHeader } from '../page-header';
import { buttonClass } from '../ui/button';

export interface MarkdownDocumentFormProps<S extends z.ZodType, V extends FieldValues> {
  title: string;
  /** The page's name in the tab's title, when it differs from the heading. */
  documentTitle?: string;
  description: string;
  /** The page's width class. */
  className: string;
  schema: S;
  defaultValues: DefaultValues<V>;
  toBody: (values: V) => z.input<S>;
  onSubmit: (body: z.input<S>) => Promise<unknown>;
  cancel: LinkOptions;
  submitLabel: string;
  children: ReactNode;
}

export function MarkdownDocumentForm<S extends z.ZodType, V extends FieldValues>(
  props: MarkdownDocumentFormProps<S, V>,
) {
  return (
    <div className={props.className}>
      <PageHeader title={props.title} documentTitle={props.documentTitle} description={props.description} />
      <Form<S, V>
        schema={props.schema}
        defaultValues={props.defaultValues}
        toBody={props.toBody}
        onSubmit={props.onSubmit}
        aria-label={props.title}
        className="rounded-lg border border-line bg-surface p-4"
        actions={
          <div className="flex justify-end gap-2">
            <Link {...props.cancel} className={buttonClass()}>
              Cancel
            </Link>
            <SubmitButton pendingLabel="Saving…">{props.submitLabel}</SubmitButton>
          </div>
        }
      >
        {props.children}
      </Form>
    </div>
  );
}
