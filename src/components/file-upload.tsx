/**
 * Attaching files: drop them on the zone or pick them, each checked against the size limit before anything is
 * sent, uploaded at once through the console (progress as it goes, Cancel while it does), and reported to the
 * form as the list of finished uploads. A failed upload says why and can be retried; any can be removed.
 * The parent resets it by remounting (a `key`).
 */
import { FileUp, Paperclip, RotateCcw, X } from 'lucide-react';
import { useEffect, useEffectEvent, useId, useRef, useState, type DragEvent } from 'react';
import { ATTACHMENT_LIMITS, ATTACHMENT_SIZE_LABEL, type UploadedAttachment } from '@/api/operations/attachments';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-error';
import { attachmentRefusal, formatBytes, uploadAttachment, type UploadHandle } from '@/lib/attachments';
import { cn } from '@/lib/cn';

type ItemState =
  | { status: 'uploading'; sent: number; handle: UploadHandle }
  | { status: 'done'; result: UploadedAttachment }
  | { status: 'failed'; error: string; retry: boolean };

interface Item {
  id: number;
  file: File;
  state: ItemState;
}

export interface FileUploadProps {
  orgId: string;
  /** The finished uploads, in the order they were added, whenever that list changes. */
  onChange: (uploaded: UploadedAttachment[]) => void;
  /** True while any upload is in flight: the parent holds its submit until they are done. */
  onBusyChange?: (busy: boolean) => void;
  label?: string;
  description?: string;
  /** Most files at once. */
  maxFiles?: number;
  disabled?: boolean;
}

export function FileUpload({
  orgId,
  onChange,
  onBusyChange,
  label = 'Attachments',
  description,
  maxFiles = ATTACHMENT_LIMITS.filesAtOnce,
  disabled,
}: FileUploadProps) {
  const [items, setItems] = useState<Item[]>([]);
  const [dragging, setDragging] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const nextId = useRef(1);
  const ids = useId();
  // The latest items, for the unmount cleanup.
  const live = useRef(items);
  useEffect(() => {
    live.current = items;
  });

  const update = (id: number, state: ItemState) =>
    setItems((list) => list.map((it) => (it.id === id ? { ...it, state } : it)));

  const start = (id: number, file: File) => {
    const handle = uploadAttachment(orgId, file, (sent) => {
      setItems((list) =>
        list.map((it) =>
          it.id === id && it.state.status === 'uploading' ? { ...it, state: { ...it.state, sent } } : it,
        ),
      );
    });
    handle.promise.then(
      (result) => update(id, { status: 'done', result }),
      (err: unknown) => {
        if (err instanceof DOMException && err.name === 'AbortError') {
          setItems((list) => list.filter((it) => it.id !== id));
          return;
        }
        update(id, { status: 'failed', error: errorMessage(err), retry: true });
      },
    );
    return handle;
  };

  const add = (files: FileList | File[]) => {
    setNotice(null);
    const room = maxFiles - items.length;
    const list = [...files];
    if (list.length > room) setNotice(`At most ${maxFiles} ${maxFiles === 1 ? 'file' : 'files'}; ${list.length - Math.max(room, 0)} not added.`);
    const added: Item[] = list.slice(0, Math.max(room, 0)).map((file) => {
      const id = nextId.current++;
      const refusal = attachmentRefusal(file);
      return {
        id,
        file,
        state: refusal
          ? { status: 'failed', error: refusal, retry: false }
          : { status: 'uploading', sent: 0, handle: start(id, file) },
      };
    });
    setItems((l) => [...l, ...added]);
  };

  const done = items.flatMap((it) => (it.state.status === 'done' ? [it.state.result] : []));
  const doneKey = done.map((d) => d.attachment_id).join(',');
  const busy = items.some((it) => it.state.status === 'uploading');
  const notify = useEffectEvent(() => {
    onChange(done);
    onBusyChange?.(busy);
  });
  // The parent hears of a change of the finished set or of the busy state, not of every progress event.
  useEffect(() => notify(), [doneKey, busy]);
  // Uploads still going when the form goes away are stopped.
  useEffect(
    () => () => {
      for (const it of live.current) if (it.state.status === 'uploading') it.state.handle.abort();
    },
    [],
  );

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    if (!disabled && e.dataTransfer.files.length > 0) add(e.dataTransfer.files);
  };

  return (
    <div role="group" aria-labelledby={`${ids}-label`} aria-describedby={`${ids}-hint`} className="flex flex-col gap-2">
      <span id={`${ids}-label`} className="text-sm font-medium">
        {label}
      </span>
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
        <p id={`${ids}-hint`} className="text-xs text-muted">
          {description ?? 'Files the agent gets with the session.'} At most {ATTACHMENT_SIZE_LABEL} per file, {maxFiles}{' '}
          files.
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
            if (e.target.files) add(e.target.files);
            e.target.value = '';
          }}
        />
      </div>
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
              onRemove={() => setItems((l) => l.filter((x) => x.id !== it.id))}
              onRetry={() => update(it.id, { status: 'uploading', sent: 0, handle: start(it.id, it.file) })}
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
  onRetry,
}: {
  item: Item;
  onCancel: () => void;
  onRemove: () => void;
  onRetry: () => void;
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
          <>
            {state.status === 'failed' && state.retry ? (
              <Button size="sm" variant="ghost" onClick={onRetry} aria-label={`Retry upload of ${file.name}`}>
                <RotateCcw className="size-3.5" aria-hidden /> Retry
              </Button>
            ) : null}
            <Button size="sm" variant="ghost" onClick={onRemove} aria-label={`Remove ${file.name}`}>
              <X className="size-3.5" aria-hidden /> Remove
            </Button>
          </>
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
      ) : state.status === 'done' ? (
        <span className="text-xs text-success" role="status">
          Uploaded
        </span>
      ) : (
        <span className="text-xs text-danger" role="alert">
          {state.error}
        </span>
      )}
    </li>
  );
}
