/**
 * The Configuration screen's document: the editor (errors at their lines as one types, from the same reader the
 * console uses), loading live state into it, and planning it.
 */
import { useMemo } from 'react';
import { useWatch } from 'react-hook-form';
import { ConfigPlanRequest } from '@/api/console/configuration';
import { parseConfigDocument } from '@/api/config-document/parse';
import { CheckboxField, Form, SubmitButton, TextareaField } from '@/components/form';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';

/** The plan request as the form holds it. */
export type DocumentValues = { document: string; file: string; prune: boolean };
const STARTER = 'version: 1\norganizations: []\n';

export function DocumentSection({
  document,
  loadError,
  onLoadLive,
  onPlan,
}: {
  /** The document loaded last (live state or a revision); `null` starts from an empty one. */
  document: string | null;
  loadError: unknown;
  onLoadLive: () => void;
  onPlan: (body: DocumentValues) => Promise<void>;
}) {
  return (
    <section aria-labelledby="document-heading" className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="document-heading" className="text-lg font-semibold">
          Document
        </h2>
        <Button variant="secondary" onClick={onLoadLive}>
          Load live state
        </Button>
      </div>
      {loadError ? <ProblemView error={loadError} /> : null}
      <Form
        key={document ?? 'starter'}
        schema={ConfigPlanRequest}
        aria-label="Configuration document"
        defaultValues={{ document: document ?? STARTER, file: 'document.yaml', prune: false }}
        onSubmit={(body) => onPlan(body as DocumentValues)}
        actions={<SubmitButton pendingLabel="Planning…">Plan</SubmitButton>}
      >
        <TextareaField
          name="document"
          label="Document (YAML or JSON)"
          rows={18}
          textareaClassName="font-mono text-xs"
        />
        <LineErrors />
        <CheckboxField name="prune" label="Delete what the document does not name, in every set it writes (--prune)" />
      </Form>
    </section>
  );
}

/** The document's errors at their lines, as one types (the reader the console uses, in the browser). */
function LineErrors() {
  const text = useWatch<DocumentValues, 'document'>({ name: 'document' });
  const errors = useMemo(() => (text ? parseConfigDocument(text, 'document.yaml').errors : []), [text]);
  if (errors.length === 0) return null;
  return (
    <ul aria-label="Errors in the document" className="flex flex-col gap-1 text-sm text-danger">
      {errors.slice(0, 20).map((e, i) => (
        <li key={i}>
          {e.line ? `Line ${e.line}` : 'Document'}
          {e.path ? ` (${e.path})` : ''}: {e.message}
        </li>
      ))}
    </ul>
  );
}
