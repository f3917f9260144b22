/**
 * Bulk actions on the sessions list: archive, terminate or tag the selected sessions. The toolbar shows with
 * the first selection; the confirmation that lists the sessions and then follows each one's progress is
 * `bulk-dialog.tsx`, loaded when an action is first pointed at, focused or chosen.
 */
import { lazy, Suspense, useState } from 'react';
import type { Session } from '@/api/operations/sessions';
import { Button } from '@/components/ui/button';
import { formatNumber } from '@/lib/format';

/** Most sessions one bulk action takes. */
export const BULK_MAX = 100;

export type BulkKind = 'archive' | 'terminate' | 'tag';

const loadDialog = () => import('./bulk-dialog');
const preloadDialog = () => void loadDialog().catch(() => undefined);
const BulkDialog = lazy(loadDialog);

export function BulkActions({ selected, onDone }: { selected: readonly Session[]; onDone: () => void }) {
  const [kind, setKind] = useState<BulkKind | null>(null);
  if (selected.length === 0) return null;
  const action = (k: BulkKind) => ({
    onPointerEnter: preloadDialog,
    onFocus: preloadDialog,
    onClick: () => setKind(k),
  });
  return (
    <div
      role="toolbar"
      aria-label="Selected sessions"
      className="mb-2 flex flex-wrap items-center gap-2 rounded-md border border-line bg-surface-2 px-3 py-2 text-sm"
    >
      <span className="font-medium">{formatNumber(selected.length)} selected</span>
      <Button size="sm" {...action('archive')}>
        Archive…
      </Button>
      <Button size="sm" variant="danger" {...action('terminate')}>
        Terminate…
      </Button>
      <Button size="sm" {...action('tag')}>
        Add tag…
      </Button>
      <Button size="sm" variant="ghost" onClick={onDone}>
        Clear selection
      </Button>
      {kind && (
        <Suspense fallback={null}>
          <BulkDialog
            kind={kind}
            selected={selected}
            onClose={(ran) => {
              setKind(null);
              if (ran) onDone();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
