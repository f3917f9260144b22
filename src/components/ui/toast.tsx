/**
 * Toasts (Radix Toast): short notices of something done, optionally with one action such as Undo. Call
 * `toast(...)` from anywhere; `<Toaster />` is mounted once at the app root and loads the toast UI only when
 * the first toast is queued. Radix announces each toast to screen readers, pauses its timer while hovered or
 * focused, and F8 moves focus to the toasts.
 *
 *   toast({ title: 'Note deleted', action: { label: 'Undo', onClick: restore } });
 *
 * A toast is never the only place an error is told: errors show where the admin acted.
 */
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { getToasts, subscribe } from './toast-store';

export { toast, type ToastOptions } from './toast-store';

const ToastView = lazy(() => import('./toast-view'));

export function Toaster() {
  const queued = useSyncExternalStore(
    subscribe,
    () => getToasts().length > 0,
    () => false,
  );
  if (!queued) return null;
  return (
    <Suspense fallback={null}>
      <ToastView />
    </Suspense>
  );
}
