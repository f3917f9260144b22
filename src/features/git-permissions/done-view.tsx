/** The bulk editor after a change was applied: what the set became, its revision, and where to go next. */
import { Link } from '@tanstack/react-router';
import type { ConsoleApplyResult } from '@/api/console/git-permissions';
import { Button } from '@/components/ui/button';
import { formatNumber } from '@/lib/format';

export function DoneView({
  orgId,
  result,
  onKeepEditing,
}: {
  orgId: string;
  result: ConsoleApplyResult;
  /** Edit again, from the set the change left. */
  onKeepEditing: (set: { items: ConsoleApplyResult['items']; version: string }) => void;
}) {
  const revision = result.revision;
  return (
    <div role="status" className="flex flex-col gap-3 rounded-lg border border-success/40 bg-success/5 p-4 text-sm">
      <p className="font-semibold text-success">
        {result.unchanged
          ? 'Nothing to apply: the set already matched your edit.'
          : `Applied. The organization now has ${formatNumber(result.count)} git permissions.`}
      </p>
      {revision && (
        <p>
          Revision #{revision.revision_id}: {revision.added} added, {revision.removed} removed, {revision.changed}{' '}
          changed
          {revision.method === 'per_item' ? ' (applied with per-item operations)' : ''}. The previous set is kept in the
          history.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Link
          to="/orgs/$orgId/git-permissions"
          params={{ orgId }}
          search={{}}
          className="text-accent underline underline-offset-2 hover:no-underline"
        >
          View permissions
        </Link>
        <Link
          to="/orgs/$orgId/git-permissions/history"
          params={{ orgId }}
          className="text-accent underline underline-offset-2 hover:no-underline"
        >
          View history
        </Link>
        <Button size="sm" onClick={() => onKeepEditing({ items: result.items, version: result.version })}>
          Keep editing
        </Button>
      </div>
    </div>
  );
}
