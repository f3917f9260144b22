/**
 * Column visibility remembered per screen: which columns an admin hid, kept in localStorage under the
 * table's id, so the screen opens the way it was left.
 */
import { useCallback, useState } from 'react';
import type { ColumnVisibilityState, Updater } from '@tanstack/react-table';

export function columnVisibilityKey(tableId: string): string {
  return `data-table:${tableId}:columns`;
}

function read(tableId: string): ColumnVisibilityState {
  try {
    const raw = window.localStorage.getItem(columnVisibilityKey(tableId));
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    // Only `false` hides a column; anything else a stored value holds is dropped.
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v === false)) as ColumnVisibilityState;
  } catch {
    return {};
  }
}

export function usePersistedColumnVisibility(
  tableId: string,
): [ColumnVisibilityState, (updater: Updater<ColumnVisibilityState>) => void] {
  const [state, setState] = useState(() => read(tableId));
  const update = useCallback(
    (updater: Updater<ColumnVisibilityState>) =>
      setState((old) => {
        const next = typeof updater === 'function' ? updater(old) : updater;
        try {
          const hidden = Object.fromEntries(Object.entries(next).filter(([, v]) => v === false));
          if (Object.keys(hidden).length === 0) window.localStorage.removeItem(columnVisibilityKey(tableId));
          else window.localStorage.setItem(columnVisibilityKey(tableId), JSON.stringify(hidden));
        } catch {
          // Private mode or a full storage: the choice lasts for this visit only.
        }
        return next;
      }),
    [tableId],
  );
  return [state, update];
}
