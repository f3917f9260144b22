/** Paste or import permissions as CSV or JSON into the bulk editor, adding to or replacing the draft. */
import { Dialog } from 'radix-ui';
import { useState } from 'react';
import type { GitPermissionInput } from '@/api/git-permissions/resources';
import { Button } from '@/components/ui/button';
import { Field, textareaClass } from '@/components/field';
import { CSV_COLUMNS, parseImport } from './set-model';

export function ImportDialog({
  onImport,
}: {
  onImport: (items: GitPermissionInput[], mode: 'add' | 'replace') => void;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [mode, setMode] = useState<'add' | 'replace'>('add');
  const [errors, setErrors] = useState<string[]>([]);

  const reset = () => {
    setText('');
    setErrors([]);
    setMode('add');
  };

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) reset();
      }}
    >
      <Dialog.Trigger asChild>
        <Button>Import or paste…</Button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-black/40" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex max-h-[90dvh] w-[min(94vw,40rem)] -translate-x-1/2 -translate-y-1/2 flex-col gap-3 overflow-auto rounded-lg border border-line bg-surface p-5 shadow-xl">
          <Dialog.Title className="text-base font-semibold">Import permissions</Dialog.Title>
          <Dialog.Description className="text-sm text-muted">
            CSV with a header line <code className="font-mono">{CSV_COLUMNS.join(',')}</code>, or JSON: an array of
            permissions or <code className="font-mono">{'{"permissions": [...]}'}</code>. Each permission sets one of
            repo_path, prefix_path or group_prefix.
          </Dialog.Description>
          <Field label="Import file">
            <input
              type="file"
              accept=".csv,.json,text/csv,application/json"
              className="text-sm"
              onChange={async (e) => {
                const file = e.target.files?.[0];
                if (file) {
                  setText(await file.text());
                  setErrors([]);
                }
              }}
            />
          </Field>
          <Field label="CSV or JSON" hint="Paste here, or choose a file above to load it here.">
            <textarea
              className={`${textareaClass} min-h-40 font-mono text-xs`}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setErrors([]);
              }}
              spellCheck={false}
            />
          </Field>
          <fieldset className="flex flex-col gap-1 text-sm">
            <legend className="mb-1 font-medium">Imported permissions</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="import-mode" checked={mode === 'add'} onChange={() => setMode('add')} /> Add to
              the draft
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="import-mode" checked={mode === 'replace'} onChange={() => setMode('replace')} />{' '}
              Replace the whole draft
            </label>
          </fieldset>
          {errors.length > 0 && (
            <ul
              role="alert"
              className="list-disc rounded-md border border-danger/40 bg-danger/5 py-2 pr-3 pl-7 text-xs text-danger"
            >
              {errors.slice(0, 20).map((e, i) => (
                <li key={i}>{e}</li>
              ))}
              {errors.length > 20 && <li>…and {errors.length - 20} more</li>}
            </ul>
          )}
          <div className="flex justify-end gap-2">
            <Dialog.Close asChild>
              <Button>Cancel</Button>
            </Dialog.Close>
            <Button
              variant="primary"
              onClick={() => {
                const r = parseImport(text);
                if (r.items.length === 0 || r.errors.some((e) => !e.startsWith('Unknown column'))) {
                  setErrors(r.errors.length ? r.errors : ['No permissions found']);
                  return;
                }
                onImport(r.items, mode);
                setOpen(false);
                reset();
              }}
            >
              Import
            </Button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
