/**
 * The bulk editor's conflict: another change landed while the admin edited, so nothing was applied. It shows
 * what changed meanwhile beside the admin's edit, and offers to reapply the edit on top of the current set
 * (reviewed before anything is applied), to export the edit, or to start over from the current set.
 */
import {
  diffGitPermissionSets,
  normalizeGitPermission,
  type GitPermissionDiff,
  type NormalizedGitPermission,
} from '@/api/git-permissions/set-diff';
import { Button } from '@/components/ui/button';
import { formatNumber } from '@/lib/format';
import type { EditorConflict } from './editor-state';
import { DiffView } from './shared';

export function ConflictView({
  conflict,
  baseInputs,
  myDiff,
  connectionName,
  onReapply,
  onExport,
  onStartOver,
}: {
  conflict: EditorConflict;
  /** The set the edit started from. */
  baseInputs: readonly NormalizedGitPermission[];
  /** The admin's edit: base → draft. */
  myDiff: GitPermissionDiff<NormalizedGitPermission>;
  connectionName: (id: string) => string;
  onReapply: () => void;
  onExport: () => void;
  /** Drop the edit for the set as it is now (read again; the 409's set when the read fails). */
  onStartOver: (current: { items: EditorConflict['body']['current']; version: string }) => void;
}) {
  const { body, action } = conflict;
  const meanwhile = body.changes ?? diffGitPermissionSets([...baseInputs], body.current.map(normalizeGitPermission));
  return (
    <section aria-label="Conflict" className="flex flex-col gap-4">
      <div role="alert" className="rounded-lg border border-warn/50 bg-warn/10 p-4 text-sm">
        <p className="font-semibold">Another change landed while you were editing. Nothing was applied.</p>
        <p className="mt-1">
          The set now has {formatNumber(body.current.length)} permissions. Your edit is still here: reapply it on top of
          the current set (you review the result before anything is applied), or start over from the current set.
        </p>
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-2">
          <h2 className="text-sm font-semibold">What changed meanwhile</h2>
          <DiffView diff={meanwhile} connectionName={connectionName} />
        </div>
        <div className="flex min-w-0 flex-col gap-2">
          <h2 className="text-sm font-semibold">
            {action === 'clear' ? 'Your action: clear all permissions' : 'Your edit'}
          </h2>
          {action === 'clear' ? (
            <p className="text-sm text-muted">Clear every permission of the organization.</p>
          ) : (
            <DiffView diff={myDiff} connectionName={connectionName} />
          )}
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="primary" onClick={onReapply}>
          {action === 'clear' ? 'Show the current set' : 'Reapply my edit on top'}
        </Button>
        <Button onClick={onExport}>Export my edit (JSON)</Button>
        <Button variant="danger" onClick={() => onStartOver({ items: body.current, version: body.current_version })}>
          Start over (discard my edit)
        </Button>
      </div>
    </section>
  );
}
