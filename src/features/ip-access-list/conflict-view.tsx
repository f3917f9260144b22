/**
 * What the IP access list screen shows when the list changed since the edit started (a 409 on apply): what
 * changed meanwhile, and the choice to review the edited list against the current one or to start over.
 */
import { useEffect, useRef } from 'react';
import type { IpAccessListConflict } from '@/api/console/ip-access-list';
import { Button } from '@/components/ui/button';
import { formatNumber } from '@/lib/format';
import { DiffTable } from './diff-table';

/** The list changed since the edit started: what changed, and how to go on. */
export function ConflictView({
  conflict,
  onKeepEdits,
  onStartOver,
}: {
  conflict: IpAccessListConflict;
  onKeepEdits: () => void;
  onStartOver: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The conflict replaces the review: focus goes to what it says, not to the body.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="ip-conflict-heading" className="flex flex-col gap-4">
      <div role="alert" className="rounded-lg border border-warn/40 bg-warn/10 p-4 text-sm">
        <h2 id="ip-conflict-heading" ref={heading} tabIndex={-1} className="font-semibold outline-none">
          The list changed since you started editing
        </h2>
        <p className="mt-1">{conflict.detail}</p>
      </div>
      {conflict.changes ? (
        <DiffTable added={conflict.changes.added} removed={conflict.changes.removed} label="Changed meanwhile" />
      ) : (
        <p className="text-sm text-muted">The list now holds {formatNumber(conflict.current.length)} entries.</p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button onClick={onStartOver}>Discard my edits and start from the current list</Button>
        <Button variant="primary" onClick={onKeepEdits}>
          Review my list against the current one
        </Button>
      </div>
    </section>
  );
}
