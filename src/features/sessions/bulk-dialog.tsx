/**
 * The confirmation and progress of a bulk action on the sessions list (see `bulk-actions.tsx`): it lists the
 * selected sessions first; then each runs on its own (a few at a time) and shows its progress and outcome, so
 * one failure neither stops nor hides the others. Every session that changed is merged into the loaded list
 * pages. Loaded when an action is first pointed at or chosen: the list's first paint carries neither the
 * dialog nor the tag's schema.
 */
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, CircleAlert, LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { Tag, type Session } from '@/api/operations/sessions';
import {
  AlertDialog,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { apiCall } from '@/lib/api-client';
import { errorMessage } from '@/lib/api-error';
import { formatNumber } from '@/lib/format';
import { mergeSessionsIntoLists } from './api';
import { isTerminalStatus } from './statuses';
import type { BulkKind } from './bulk-actions';

/** Calls in flight at once. */
const CONCURRENCY = 4;

type ItemState = { state: 'waiting' } | { state: 'running' } | { state: 'done' } | { state: 'failed'; message: string };

const VERB: Record<BulkKind, { title: string; action: string; done: string }> = {
  archive: { title: 'Archive', action: 'Archive', done: 'archived' },
  terminate: { title: 'Terminate', action: 'Terminate', done: 'terminated' },
  tag: { title: 'Tag', action: 'Add tag', done: 'tagged' },
};

function runOne(kind: BulkKind, s: Session, tag: string): Promise<Session | null> {
  const params = { org_id: s.org_id, agent_id: s.session_id };
  if (kind === 'archive') return apiCall('sessions.archive', { params });
  if (kind === 'terminate') return apiCall('sessions.terminate', { params, query: {} });
  return apiCall('sessions.tags.append', { params, body: { tags: [tag] } }).then(() => null);
}

/** Whether the action applies to a session at all (terminating an ended one is skipped, said so). */
function skipReason(kind: BulkKind, s: Session): string | null {
  if (kind === 'terminate' && isTerminalStatus(s.status)) return `already ended (${s.status})`;
  if (kind === 'archive' && s.is_archived) return 'already archived';
  return null;
}

/**
 * Runs the action on `selected`: the sessions it does not apply to are skipped (said so), the others run a few
 * at a time, each with its own progress; what changed is merged into the loaded lists, and a toast counts it.
 */
function useBulkRun(selected: readonly Session[]) {
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<Record<string, ItemState> | null>(null);
  const running =
    progress !== null && Object.values(progress).some((p) => p.state === 'waiting' || p.state === 'running');

  const run = async (k: BulkKind, tag: string) => {
    const todo = selected.filter((s) => !skipReason(k, s));
    const states: Record<string, ItemState> = {};
    for (const s of selected) {
      const why = skipReason(k, s);
      states[s.session_id] = why ? { state: 'failed', message: `skipped: ${why}` } : { state: 'waiting' };
    }
    setProgress(states);
    const set = (id: string, st: ItemState) => setProgress((p) => (p ? { ...p, [id]: st } : p));
    const queue = [...todo];
    const changed: Session[] = [];
    const worker = async () => {
      for (let s = queue.shift(); s; s = queue.shift()) {
        set(s.session_id, { state: 'running' });
        try {
          const updated = await runOne(k, s, tag);
          if (updated) changed.push(updated);
          else changed.push({ ...s, tags: [...new Set([...s.tags, tag])] });
          set(s.session_id, { state: 'done' });
        } catch (err) {
          set(s.session_id, { state: 'failed', message: errorMessage(err) });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, todo.length) }, worker));
    mergeSessionsIntoLists(queryClient, changed);
    const failed = selected.length - changed.length;
    toast({
      tone: failed ? 'danger' : 'success',
      title: `${formatNumber(changed.length)} of ${formatNumber(selected.length)} ${selected.length === 1 ? 'session' : 'sessions'} ${VERB[k].done}`,
      description: failed ? `${formatNumber(failed)} not changed: see the list in the dialog.` : undefined,
    });
  };

  return { progress, running, finished: progress !== null && !running, run };
}

/** One session's progress in the action: waiting or working, done, or why it failed or was skipped. */
function ItemProgress({ p, done }: { p: ItemState | undefined; done: string }) {
  if (p?.state === 'running' || p?.state === 'waiting')
    return (
      <span className="flex items-center gap-1 text-xs text-muted">
        <LoaderCircle className="size-3.5 animate-spin" aria-hidden />
        {p.state === 'running' ? 'working' : 'waiting'}
      </span>
    );
  if (p?.state === 'done')
    return (
      <span className="flex items-center gap-1 text-xs text-success">
        <CheckCircle2 className="size-3.5" aria-hidden />
        {done}
      </span>
    );
  if (p?.state === 'failed')
    return (
      <span className="flex items-center gap-1 text-xs text-danger">
        <CircleAlert className="size-3.5" aria-hidden />
        {p.message}
      </span>
    );
  return null;
}

/** The tag to add, with why it is refused. */
function TagInput({ tag, error, onChange }: { tag: string; error: string | null; onChange: (tag: string) => void }) {
  return (
    <div className="mt-3 flex flex-col gap-1 text-sm">
      <label htmlFor="bulk-tag">Tag</label>
      <Input
        id="bulk-tag"
        value={tag}
        maxLength={200}
        aria-invalid={!!error}
        aria-describedby={error ? 'bulk-tag-error' : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <p id="bulk-tag-error" className="text-xs text-danger">
          {error}
        </p>
      )}
    </div>
  );
}

const DESCRIPTION: Record<BulkKind, string> = {
  terminate: 'Each session stops at once and cannot be resumed. Sessions that already ended are skipped.',
  archive: 'Archived sessions stay readable; the Archived filter shows or hides them.',
  tag: 'The tag is added to each session; its other tags stay.',
};

/**
 * The dialog of one bulk action on `selected`. `onClose(ran)`: the admin closed it, after the action ran or
 * before (cancelled); it cannot be closed while the action runs.
 */
export default function BulkDialog({
  kind,
  selected,
  onClose,
}: {
  kind: BulkKind;
  selected: readonly Session[];
  onClose: (ran: boolean) => void;
}) {
  const [tag, setTag] = useState('');
  const [tagError, setTagError] = useState<string | null>(null);
  const { progress, running, finished, run } = useBulkRun(selected);

  const start = async (k: BulkKind) => {
    if (k === 'tag') {
      const parsed = Tag.safeParse(tag.trim());
      if (!parsed.success) return setTagError(parsed.error.issues[0]?.message ?? 'Not a valid tag');
      setTagError(null);
    }
    await run(k, tag.trim());
  };

  const close = () => {
    if (running) return;
    onClose(finished);
  };

  return (
    <AlertDialog open onOpenChange={(o) => (o ? undefined : close())}>
      <AlertDialogContent className="w-[min(92vw,40rem)]">
        <AlertDialogTitle>
          {VERB[kind].title} {formatNumber(selected.length)} {selected.length === 1 ? 'session' : 'sessions'}
          {finished ? ': done' : '?'}
        </AlertDialogTitle>
        <AlertDialogDescription className="mt-1 text-sm text-muted">{DESCRIPTION[kind]}</AlertDialogDescription>
        {kind === 'tag' && !progress && <TagInput tag={tag} error={tagError} onChange={setTag} />}
        <ul
          aria-label="Sessions in this action"
          className="mt-3 max-h-72 divide-y divide-line overflow-auto rounded-md border border-line text-sm"
        >
          {selected.map((s) => (
            <li key={s.session_id} className="flex items-center gap-2 px-3 py-1.5">
              <span className="min-w-0 flex-1 truncate">{s.title || s.session_id}</span>
              <ItemProgress p={progress?.[s.session_id]} done={VERB[kind].done} />
            </li>
          ))}
        </ul>
        <p className="sr-only" role="status">
          {progress
            ? `${Object.values(progress).filter((p) => p.state === 'done').length} of ${selected.length} done`
            : ''}
        </p>
        <div className="mt-4 flex justify-end gap-2">
          {finished ? (
            <Button variant="primary" onClick={close}>
              Done
            </Button>
          ) : (
            <>
              <Button onClick={close} disabled={running}>
                Cancel
              </Button>
              <Button
                variant={kind === 'terminate' ? 'danger' : 'primary'}
                disabled={running}
                onClick={() => void start(kind)}
              >
                {running ? 'Working…' : `${VERB[kind].action} ${formatNumber(selected.length)}`}
              </Button>
            </>
          )}
        </div>
      </AlertDialogContent>
    </AlertDialog>
  );
}
