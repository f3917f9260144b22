/**
 * The toast queue: `toast(...)` from anywhere, without loading the toast UI. The Radix toaster
 * (`toast-view.tsx`) is loaded by `<Toaster />` when the first toast is queued, so the first screen does not
 * carry it.
 */
import type { ReactNode } from 'react';

export interface ToastOptions {
  title: ReactNode;
  description?: ReactNode;
  /** One action, e.g. Undo. The toast closes when it is taken. */
  action?: { label: string; onClick: () => void };
  tone?: 'neutral' | 'success' | 'danger';
  /** Milliseconds before it closes on its own; a toast with an action stays longer by default. */
  duration?: number;
}

export interface ToastItem extends ToastOptions {
  id: number;
  open: boolean;
}

export const DEFAULT_MS = 5_000;
export const ACTION_MS = 10_000;
/** Most toasts shown at once; older ones give way. */
const MAX_TOASTS = 3;

let items: ToastItem[] = [];

/** The toasts queued now (a new array on every change). */
export const getToasts = (): readonly ToastItem[] => items;
let nextId = 1;
const listeners = new Set<() => void>();

export function emit(next: ToastItem[]) {
  items = next;
  for (const l of listeners) l();
}

export function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows a toast; returns a function that closes it. */
export function toast(options: ToastOptions): () => void {
  const id = nextId++;
  emit([...items, { ...options, id, open: true }].slice(-MAX_TOASTS));
  return () => dismiss(id);
}

export function dismiss(id: number) {
  emit(items.map((t) => (t.id === id ? { ...t, open: false } : t)));
}

export function remove(id: number) {
  emit(items.filter((t) => t.id !== id));
}
