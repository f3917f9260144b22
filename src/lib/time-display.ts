/** Whether times read relative ("5 min ago") or absolute (local date and time): one choice, kept in the browser. */
import { useSyncExternalStore } from 'react';

export type TimeDisplay = 'relative' | 'absolute';
const KEY = 'console-time-display';
const listeners = new Set<() => void>();

function read(): TimeDisplay {
  try {
    return localStorage.getItem(KEY) === 'absolute' ? 'absolute' : 'relative';
  } catch {
    return 'relative';
  }
}

let current: TimeDisplay | null = null;

export function getTimeDisplay(): TimeDisplay {
  return (current ??= read());
}

export function setTimeDisplay(next: TimeDisplay): void {
  current = next;
  try {
    localStorage.setItem(KEY, next);
  } catch {
    // storage unavailable: the choice lasts for this page
  }
  for (const l of listeners) l();
}

export function useTimeDisplay(): TimeDisplay {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getTimeDisplay,
    () => 'relative' as const,
  );
}
