/** Paste or import permissions as CSV or JSON into the bulk editor, adding to or replacing the draft. */
import { useId, useState } from 'react';
import type { GitPermissionInput } from '@/api/git-permissions/resources';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { Textarea } from '@/components/ui/textarea';
import { Breakable } from '@/components/breakable';
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
  const id = useId();

  const reset = () => {
    setText('');
    setErrors([]);
    setMode('add');
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button>Import or paste…</Button>
      </DialogTrigger>
      <DialogContent className="flex w-[min(94vw,40rem)] flex-col gap-3">
        <DialogTitle>Import permissions</DialogTitle>
        <DialogDescription className="mt-0">
          CSV with a header line{' '}
          <code className="font-mono">
            <Breakable text={CSV_COLUMNS.join(',')} />
          </code>
          , or JSON: an array of permissions or <code className="font-mono">{'{"permissions": [...]}'}</code>. Each
          permission sets one of repo_path, prefix_path or group_prefix.
        </DialogDescription>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-file`} className="text-sm font-medium">
            Import file
          </label>
          <input
            id={`${id}-file`}
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
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-text`} className="text-sm font-medium">
            CSV or JSON
          </label>
          <Textarea
            id={`${id}-text`}
            aria-describedby={`${id}-hint`}
            aria-invalid={errors.length > 0 || undefined}
            className="min-h-40 font-mono text-xs"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setErrors([]);
            }}
            spellCheck={false}
          />
          <p id={`${id}-hint`} className="text-xs text-muted">
            Paste here, or choose a file above to load it here.
          </p>
        </div>
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
        <DialogFooter className="mt-0">
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
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
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
