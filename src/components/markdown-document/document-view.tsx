/**
 * The page of one Markdown document (a knowledge note, a playbook): a link back to its list, the heading with
 * Edit and Delete, the document's details, its body rendered as Markdown, and the confirmation that deletes it
 * and then returns to the list. Each feature gives its words, its details and its extra actions.
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Link, useNavigate, type LinkOptions } from '@tanstack/react-router';
import { ArrowLeft, Pencil, Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { ConfirmDelete, type DeleteMutation } from '../delete-action';
import { Markdown } from '../markdown';
import { PageHeader } from '../page-header';
import { Button, buttonClass } from '../ui/button';

export interface MarkdownDocumentViewProps {
  title: string;
  /** Under the title: badges and the id. */
  description: ReactNode;
  /** The list the document belongs to: the back link and where a delete returns. */
  list: { to: LinkOptions; label: string };
  edit: LinkOptions;
  /** Actions before Edit (for example "Start a session with this playbook"). */
  actions?: ReactNode;
  /** Between the heading and the body: the document's details. */
  children?: ReactNode;
  body: string;
  /** The body section's accessible name ("Note body"). */
  bodyLabel: string;
  /** Said instead of an empty body; without it an empty body renders as empty Markdown. */
  emptyBody?: string;
  remove: {
    mutation: DeleteMutation<string>;
    id: string;
    description: string;
    confirmLabel: string;
    /** Drops the deleted document from the cache once the list shows (so its page does not refetch it). */
    forget: (queryClient: QueryClient, id: string) => void;
  };
}

export function MarkdownDocumentView(props: MarkdownDocumentViewProps) {
  const { remove } = props;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  return (
    <div className="max-w-4xl">
      <Link
        {...props.list.to}
        className="mb-3 inline-flex items-center gap-1 text-sm text-accent underline underline-offset-2 hover:no-underline"
      >
        <ArrowLeft className="size-4" aria-hidden /> {props.list.label}
      </Link>
      <PageHeader
        title={props.title}
        description={<span className="flex flex-wrap items-center gap-2">{props.description}</span>}
        actions={
          <>
            {props.actions}
            <Link {...props.edit} className={buttonClass()}>
              <Pencil className="size-4" aria-hidden /> Edit
            </Link>
            <Button variant="danger" onClick={() => setConfirming(true)}>
              <Trash2 className="size-4" aria-hidden /> Delete
            </Button>
          </>
        }
      />
      {props.children}
      <section aria-label={props.bodyLabel} className="rounded-lg border border-line bg-surface p-4">
        {props.emptyBody !== undefined && !props.body.trim() ? (
          <p className="text-sm text-muted">{props.emptyBody}</p>
        ) : (
          <Markdown source={props.body} />
        )}
      </section>
      <ConfirmDelete
        target={confirming ? remove.id : null}
        onClose={() => setConfirming(false)}
        mutation={remove.mutation}
        variables={(id) => id}
        title={`Delete “${props.title}”?`}
        description={remove.description}
        confirmLabel={remove.confirmLabel}
        onDeleted={(id) => void navigate(props.list.to).then(() => remove.forget(queryClient, id))}
      />
    </div>
  );
}

/** The details of a document: a bordered grid of label and value. */
export function DocumentDetails({ children }: { children: ReactNode }) {
  return (
    <dl className="mb-4 grid grid-cols-1 gap-x-6 gap-y-3 rounded-lg border border-line bg-surface p-4 text-sm sm:grid-cols-2">
      {children}
    </dl>
  );
}

export function DocumentDetail({
  label,
  children,
  wide = false,
  className,
}: {
  label: string;
  children: ReactNode;
  /** Across both columns. */
  wide?: boolean;
  /** The value's class (for example `font-mono text-xs` for an id). */
  className?: string;
}) {
  return (
    <div className={wide ? 'sm:col-span-2' : undefined}>
      <dt className="text-muted">{label}</dt>
      <dd className={className}>{children}</dd>
    </div>
  );
}
