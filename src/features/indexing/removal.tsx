/**
 * Removing repositories from indexing: the removal's state (the paths awaiting confirmation, the paths typed by
 * hand, the outcome), its confirmation listing the paths, the form that takes paths typed by hand, and the
 * outcome — done, or refused as a whole with the paths not found.
 */
import { useState, type Ref } from 'react';
import { REPOSITORY_PATHS_LIMIT } from '@/api/operations/indexing';
import { Breakable } from '@/components/breakable';
import { Field, textareaClass } from '@/components/field';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { notFoundPaths, parsePaths, useRemoveFromIndexing } from './api';

/** At most this many paths go in one removal (the API's limit). */
export const MAX_PATHS = REPOSITORY_PATHS_LIMIT.max;

type Outcome = { kind: 'removed'; paths: string[] } | null;

export type Removal = ReturnType<typeof useRemoval>;

/** The removal's state; `onRemoved` runs after a removal succeeded (the screen clears its selection). */
export function useRemoval(orgId: string, onRemoved: () => void) {
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string | null>(null);
  const [pending, setPending] = useState<string[] | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const remove = useRemoveFromIndexing(orgId);

  const ask = (paths: string[]) => {
    remove.reset();
    setOutcome(null);
    setPending(paths);
  };
  const askTyped = () => {
    const paths = parsePaths(typed);
    if (paths.length === 0) return setTypedError('Enter at least one repository path.');
    if (paths.length > MAX_PATHS)
      return setTypedError(`At most ${MAX_PATHS} repository paths per removal; this list has ${paths.length}.`);
    setTypedError(null);
    ask(paths);
  };
  const confirm = () => {
    if (!pending) return;
    const paths = pending;
    remove.mutate(paths, {
      onSuccess: (updated) => {
        setOutcome({ kind: 'removed', paths: updated.map((r) => r.repository_path) });
        onRemoved();
        setTyped('');
        setPending(null);
      },
      onError: () => setPending(null),
    });
  };
  const cancel = () => {
    if (!remove.isPending) setPending(null);
  };
  return { remove, pending, outcome, typed, setTyped, typedError, ask, askTyped, confirm, cancel };
}

/** The outcome of the last removal, where focus goes when the confirmation closes. */
export function RemovalResult({ removal, ref }: { removal: Removal; ref: Ref<HTMLDivElement> }) {
  const { outcome, remove } = removal;
  const missing = remove.error ? notFoundPaths(remove.error, remove.variables ?? []) : null;
  return (
    <div ref={ref} tabIndex={-1} aria-live="polite" className="mb-3 flex scroll-mt-20 flex-col gap-2 outline-none">
      {outcome && (
        <div role="status" className="rounded-lg border border-success/40 bg-success/10 p-3 text-sm">
          <p className="font-semibold text-success">
            Removed {outcome.paths.length} {outcome.paths.length === 1 ? 'repository' : 'repositories'} from indexing
          </p>
          <p className="mt-1 font-mono text-xs">
            <Breakable text={outcome.paths.join(', ')} />
          </p>
        </div>
      )}
      {remove.error &&
        (missing ? (
          <div role="alert" className="rounded-lg border border-danger/40 bg-danger/5 p-3 text-sm">
            <p className="font-semibold text-danger">
              {missing.length === 1 ? 'A repository was' : `${missing.length || 'Some'} repositories were`} not found —
              nothing was changed
            </p>
            {missing.length > 0 && (
              <ul className="mt-1 list-disc pl-5 font-mono text-xs" aria-label="Repositories not found">
                {missing.map((p) => (
                  <li key={p}>{p}</li>
                ))}
              </ul>
            )}
            <p className="mt-1 text-muted">{remove.error.message}</p>
          </div>
        ) : (
          <ProblemView error={remove.error} />
        ))}
    </div>
  );
}

/** Paths typed by hand: the only way when the API does not list repositories. */
export function RemoveByPath({ removal, fallback }: { removal: Removal; fallback: boolean }) {
  return (
    <section aria-label="Remove by path" className="max-w-2xl rounded-lg border border-line bg-surface p-4">
      <h2 className="text-base font-semibold">Remove repositories by path</h2>
      {fallback && (
        <p role="note" className="mt-1 text-sm text-muted">
          The API does not list repositories for indexing (the listing is not part of the API specification), so enter
          the paths of the repositories to remove.
        </p>
      )}
      <form
        className="mt-3 flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          removal.askTyped();
        }}
      >
        <Field
          label="Repository paths"
          hint={`One per line (or separated by commas), e.g. acme/payments-api. From 1 to ${MAX_PATHS} paths.`}
          error={removal.typedError ?? undefined}
        >
          <textarea
            className={`${textareaClass} font-mono`}
            value={removal.typed}
            onChange={(e) => removal.setTyped(e.target.value)}
            placeholder="owner/repository"
          />
        </Field>
        <div>
          <Button type="submit" variant="danger">
            Remove these from indexing
          </Button>
        </div>
      </form>
    </section>
  );
}

/** The confirmation, listing the paths; `onCloseAutoFocus` sends focus to the outcome. */
export function RemovalConfirm({
  removal,
  onCloseAutoFocus,
}: {
  removal: Removal;
  onCloseAutoFocus: (e: Event) => void;
}) {
  const { pending, remove } = removal;
  return (
    <ConfirmDialog
      open={pending !== null}
      onOpenChange={(o) => {
        if (!o) removal.cancel();
      }}
      title={`Remove ${pending?.length ?? 0} ${pending?.length === 1 ? 'repository' : 'repositories'} from indexing?`}
      description="Indexing is disabled and every configured branch is cleared for these repositories. If any path is not found, nothing is changed."
      confirmLabel="Remove from indexing"
      destructive
      pending={remove.isPending}
      onConfirm={removal.confirm}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <ul
        className="mt-3 max-h-48 overflow-auto rounded-md border border-line p-2 font-mono text-xs"
        aria-label="Repositories to remove"
      >
        {pending?.map((p) => (
          <li key={p}>
            <Breakable text={p} />
          </li>
        ))}
      </ul>
    </ConfirmDialog>
  );
}
