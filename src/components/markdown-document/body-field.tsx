/**
 * The Markdown body of a document form with its preview: either one at a time behind a toggle, or (`split`)
 * side by side on a wide screen and one at a time on a narrow one.
 */
import { useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { TextareaField } from '../form';
import { Markdown } from '../markdown';
import { Button } from '../ui/button';

export function MarkdownBodyField({
  description,
  textareaClassName,
  split = false,
}: {
  description: string;
  textareaClassName: string;
  split?: boolean;
}) {
  const [preview, setPreview] = useState(false);
  const body = useWatch<{ body: string }, 'body'>({
    control: useFormContext<{ body: string }>().control,
    name: 'body',
  });
  const toggle = (
    <Button size="sm" variant="ghost" onClick={() => setPreview((p) => !p)} aria-pressed={preview}>
      {preview ? 'Edit body' : 'Preview body'}
    </Button>
  );
  const field = (
    <TextareaField name="body" label="Body" description={description} textareaClassName={textareaClassName} />
  );
  if (!split) {
    return (
      <div className="flex flex-col gap-1">
        <div className="flex items-center justify-between">
          <span className="text-sm text-muted">Body format: Markdown</span>
          {toggle}
        </div>
        {preview ? (
          <div className="min-h-40 rounded-md border border-line p-3" aria-label="Body preview">
            {body.trim() ? <Markdown source={body} /> : <p className="text-sm text-muted">Nothing to preview.</p>}
          </div>
        ) : (
          field
        )}
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2 lg:hidden">
        <span className="text-sm text-muted">Body format: Markdown</span>
        {toggle}
      </div>
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <div className={preview ? 'hidden lg:block' : undefined}>{field}</div>
        {/* Focusable: a long preview scrolls, by keyboard too. */}
        <section
          aria-label="Body preview"
          tabIndex={0}
          className={`${preview ? '' : 'hidden lg:block'} min-h-40 overflow-auto rounded-md border border-line p-3 focus-visible:outline-2 focus-visible:outline-accent lg:max-h-[32rem]`}
        >
          <p className="mb-2 text-xs font-medium text-muted uppercase">Preview</p>
          {body.trim() ? <Markdown source={body} /> : <p className="text-sm text-muted">Nothing to preview yet.</p>}
        </section>
      </div>
    </div>
  );
}
