/**
 * Attaching files: drop them on the zone or pick them, each checked against the size limit at once; nothing is
 * sent until the form is submitted. The API cannot delete an attachment, so a file uploaded as soon as it was
 * chosen would stay stored when the form is abandoned. The form's submit calls `uploadAll()` (through the
 * `ref`): the chosen files upload then, with progress and Cancel, and it answers the uploaded attachments (a
 * file that failed says why and is sent again on the next submit; one already uploaded is not sent twice).
 * The parent resets it by remounting (a `key`).
 */
import { FileUp, Paperclip, X } from 'lucide-react';
import {
  useEffect,
  useEffectEvent,
  useId,
  useImperativeHandle,
  useRef,
  useState,
  type DragEvent,
  type Ref,
} from 'react';
import { ATTACHMENT_LIMITS, ATTACHMENT_SIZE_LABEL, type UploadedAttachment } from '@/api/operations/attachments';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-error';
import { attachmentRefusal, formatBytes, uploadAttachment, type UploadHandle } from '@/lib/attachments';
import { cn } from '@/lib/cn';

type ItemState =
  | { status: 'chosen' }
  | { status: 'uploading'; sent: number; handle: UploadHandle }
  | { status: 'done'; result: UploadedAttachment }
  /** `refused`: the file cannot be sent as it is (too large, empty, a bad name); otherwise it is sent again. */
  | { status: 'failed'; error: string; refused: boolean };

interface Item {
  id: number;
  file: File;
  state: ItemState;
}

/** What the form calls when it is submitted. */
export interface FileUploadHandle {
  /**
   * Uploads the chosen files not uploaded yet and answers every file's attachment, in the order they were
   * added; rejects (with the reasons) when a file cannot be uploaded, was cancelled, or failed.
   */
  uploadAll(): Promise<UploadedAttachment[]>;
}

/** Why the submit stopped: the files that could not be uploaded, each with its reason. */
export class UploadsFailedError extends Error {
  constructor(readonly failures: ReadonlyArray<{ name: string; error: string }>) {
    super(
      failures.length === 1
        ? `${failures[0]!.name} could not be uploaded: ${failures[0]!.error}. Remove it or submit again.`
        : `${failures.length} files could not be uploaded (${failures.map((f) => f.name).join(', ')}). Remove them or submit again.`,
    );
    this.name = 'UploadsFailedError';
  }
}

export interface FileUploadProps {
  orgId: string;
  ref?: Ref<FileUploadHandle>;
  /** True while files upload (during a submit). */
  onBusyChange?: (busy: boolean) => void;
  label?: string;
  description?: string;
  /** When the files are sent, in the hint: "when you create the session". */
  sentWhen?: string;
  /** Most files at once. */
  maxFiles?: number;
  disabled?: boolean;
}

/**
 * The chosen files and what happens to them: adding (checked against the size limit and the count at once),
 * uploading on the form's `uploadAll()`, cancelling, removing, telling the form while files upload, and
 * stopping the uploads still going when the form goes away.
 */
function useFileUploads({
  orgId,
  ref,
  maxFiles,
  onBusyChange,
}: {
  orgId: string;
  ref: Ref<FileUploadHandle> | undefined;
  maxFiles: number;
  onBusyChange: ((busy: boolean) => void) | undefined;
}) {
  const [items, setItems] = useState<Item[]>([]);
  const [notice, setNotice] = useState<string | null>(null);
  const nextId = useRef(1);
  // The latest items: uploadAll reads them (it runs outside a render), and so does the unmount cleanup.
  const live = useRef(items);
  useEffect(() => {
    live.current = items;
  });

  const update = (id: number, state: ItemState) =>
    setItems((list) => list.map((it) => (it.id === id ? { ...it, state } : it)));

  /** Uploads one file; answers its attachment, or its failure (a cancelled upload removes the file). */
  const upload = (id: number, file: File): Promise<UploadedAttachment | { name: string; error: string }> => {
    const handle = uploadAttachment(orgId, file, (sent) => {
      setItems((list) =>
        list.map((it) =>
          it.id === id && it.state.status === 'uploading' ? { ...it, state: { ...it.state, sent } } : it,
        ),
      );
    });
    update(id, { status: 'uploading', sent: 0, handle });
    return handle.promise.then(
      (result) => {
        update(id, { status: 'done', result });
        return result;
      },
      (err: unknown) => {
        if (err instanceof DOMException && err.name === 'AbortError') {
          setItems((list) => list.filter((it) => it.id !== id));
          return { name: file.name, error: 'the upload was cancelled' };
        }
        const error = errorMessage(err);
        update(id, { status: 'failed', error, refused: false });
        return { name: file.name, error };
      },
    );
  };

  useImperativeHandle(ref, () => ({
    async uploadAll() {
      const list = live.current;
      const refused = list.flatMap((it) =>
        it.state.status === 'failed' && it.state.refused ? [{ name: it.file.name, error: it.state.error }] : [],
      );
      if (refused.length > 0) throw new UploadsFailedError(refused);
      const results = await Promise.all(
        list.map((it) =>
          it.state.status === 'done'
            ? it.state.result
            : it.state.status === 'uploading'
              ? it.state.handle.promise.catch((err: unknown) => ({ name: it.file.name, error: errorMessage(err) }))
              : upload(it.id, it.file),
        ),
      );
      const failed = results.filter((r): r is { name: string; error: string } => 'error' in r);
      if (failed.length > 0) throw new UploadsFailedError(failed);
      return results as UploadedAttachment[];
    },
  }));

  const add = (files: FileList | File[]) => {
    setNotice(null);
    const room = maxFiles - items.length;
    const list = [...files];
    if (list.length > room)
      setNotice(
        `At most ${maxFiles} ${maxFiles === 1 ? 'file' : 'files'}; ${list.length - Math.max(room, 0)} not added.`,
      );
    const added: Item[] = list.slice(0, Math.max(room, 0)).map((file) => {
      const refusal = attachmentRefusal(file);
      return {
        id: nextId.current++,
        file,
        state: refusal ? { status: 'failed', error: refusal, refused: true } : { status: 'chosen' },
      };
    });
    setItems((l) => [...l, ...added]);
  };
  const remove = (id: number) => setItems((l) => l.filter((x) => x.id !== id));

  const busy = items.some((it) => it.state.status === 'uploading');
  const notify = useEffectEvent(() => onBusyChange?.(busy));
  useEffect(() => notify(), [busy]);
  // Uploads still going when the form goes away are stopped.
  useEffect(
    () => () => {
      for (const it of live.current) if (it.state.status === 'uploading') it.state.handle.abort();
    },
    [],
  );

  return { items, notice, add, remove };
}

/** Where files are dropped or chosen, with the limits and when they are sent. */
function DropZone({
  label,
  hintId,
  hint,
  disabled,
  onFiles,
}: {
  label: string;
  hintId: string;
  hint: string;
  disabled: boolean | undefined;
  onFiles: (files: FileList) => void;
}) {
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!disabled && e.dataTransfer.files.length > 0) onFiles(e.dataTransfer.files);
  };
  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      data-testid="file-drop-zone"
      className={cn(
        'flex flex-col items-center gap-2 rounded-lg border border-dashed border-line bg-surface px-4 py-5 text-center text-sm',
        dragging && 'border-accent bg-accent/5',
        disabled && 'opacity-60',
      )}
    >
      <FileUp className="size-5 text-muted" aria-hidden />
      <p>
        Drop files here, or{' '}
        <Button size="sm" onClick={() => inputRef.current?.click()} disabled={disabled}>
          choose files
        </Button>
      </p>
      <p id={hintId} className="text-xs text-muted">
        {hint}
      </p>
      <input
        ref={inputRef}
        type="file"
        multiple
        className="sr-only"
        tabIndex={-1}
        aria-label={`Choose files for ${label.toLowerCase()}`}
        disabled={disabled}
        onChange={(e) => {
          if (e.target.files) onFiles(e.target.files);
          e.target.value = '';
        }}
      />
    </div>
  );
}

export function FileUpload({
  orgId,
  ref,
  onBusyChange,
  label = 'Attachments',
  description,
  sentWhen = 'when you submit',
  maxFiles = ATTACHMENT_LIMITS.filesAtOnce,
  disabled,
}: FileUploadProps) {
  const { items, notice, add, remove } = useFileUploads({ orgId, ref, maxFiles, onBusyChange });
  const ids = useId();
  const hint = `${description ?? 'Files the agent gets with the session.'} At most ${ATTACHMENT_SIZE_LABEL} per file, ${maxFiles} ${maxFiles === 1 ? 'file' : 'files'}; they are uploaded ${sentWhen}.`;

  return (
    <div role="group" aria-labelledby={`${ids}-label`} aria-describedby={`${ids}-hint`} className="flex flex-col gap-2">
      <span id={`${ids}-label`} className="text-sm font-medium">
        {label}
      </span>
      <DropZone label={label} hintId={`${ids}-hint`} hint={hint} disabled={disabled} onFiles={add} />
      {notice ? (
        <p role="status" className="text-xs text-warn">
          {notice}
        </p>
      ) : null}
      {items.length > 0 && (
        <ul aria-label={`${label}: files`} className="flex flex-col gap-1.5">
          {items.map((it) => (
            <UploadRow
              key={it.id}
              item={it}
              onCancel={() => it.state.status === 'uploading' && it.state.handle.abort()}
              onRemove={() => remove(it.id)}
              sentWhen={sentWhen}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function UploadRow({
  item: { file, state },
  onCancel,
  onRemove,
  sentWhen,
}: {
  item: Item;
  onCancel: () => void;
  onRemove: () => void;
  sentWhen: string;
}) {
  const percent =
    state.status === 'uploading' ? Math.min(100, Math.round((state.sent / Math.max(file.size, 1)) * 100)) : 100;
  return (
    <li className="flex flex-col gap-1 rounded-md border border-line bg-surface px-3 py-2 text-sm">
      <div className="flex min-w-0 items-center gap-2">
        <Paperclip className="size-3.5 shrink-0 text-muted" aria-hidden />
        <span className="min-w-0 flex-1 truncate font-medium" title={file.name}>
          {file.name}
        </span>
        <span className="shrink-0 text-xs text-muted">{formatBytes(file.size)}</span>
        {state.status === 'uploading' ? (
          <Button size="sm" variant="ghost" onClick={onCancel} aria-label={`Cancel upload of ${file.name}`}>
            <X className="size-3.5" aria-hidden /> Cancel
          </Button>
        ) : (
          <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove ${file.name}`}>
            <X className="size-3.5" aria-hidden /> Remove
          </Button>
        )}
      </div>
      {state.status === 'uploading' ? (
        <div className="flex items-center gap-2">
          <progress
            className="h-1.5 flex-1 overflow-hidden rounded-full accent-[var(--color-accent)]"
            max={100}
            value={percent}
            aria-label={`Uploading ${file.name}`}
          />
          <span className="w-10 text-right text-xs text-muted tabular-nums">{percent}%</span>
        </div>
      ) : state.status === 'chosen' ? (
        <span className="text-xs text-muted">Not uploaded yet: it is uploaded {sentWhen}.</span>
      ) : state.status === 'done' ? (
        <span className="text-xs text-success" role="status">
          Uploaded
        </span>
      ) : (
        <span className="text-xs text-danger" role="alert">
          {state.error}
          {state.refused ? '' : ` (it is sent again ${sentWhen})`}
        </span>
      )}
    </li>
  );
}
