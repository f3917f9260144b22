/**
 * Toasts (Radix Toast): short notices of something done, optionally with one action such as Undo. Call
 * `toast(...)` from anywhere; `<Toaster />` is mounted once at the app root. Radix announces each toast to
 * screen readers, pauses its timer while hovered or focused, and F8 moves focus to the toasts.
 *
 *   toast({ title: 'Note deleted', action: { label: 'Undo', onClick: restore } });
 *
 * A toast is never the only place an error is told: errors show where the admin acted.
 */
import { Toast as ToastPrimitive } from 'radix-ui';
import { X } from 'lucide-react';
import { useSyncExternalStore, type ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Button } from './button';

export interface ToastOptions {
  title: ReactNode;
  description?: ReactNode;
  /** One action, e.g. Undo. The toast closes when it is taken. */
  action?: { label: string; onClick: () => void };
  tone?: 'neutral' | 'success' | 'danger';
  /** Milliseconds before it closes on its own; a toast with an action stays longer by default. */
  duration?: number;
}

interface ToastItem extends ToastOptions {
  id: number;
  open: boolean;
}

const DEFAULT_MS = 5_000;
const ACTION_MS = 10_000;
/** Most toasts shown at once; older ones give way. */
const MAX_TOASTS = 3;

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: ToastItem[]) {
  items = next;
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows a toast; returns a function that closes it. */
export function toast(options: ToastOptions): () => void {
  const id = nextId++;
  emit([...items, { ...options, id, open: true }].slice(-MAX_TOASTS));
  return () => dismiss(id);
}

function dismiss(id: number) {
  emit(items.map((t) => (t.id === id ? { ...t, open: false } : t)));
}

function remove(id: number) {
  emit(items.filter((t) => t.id !== id));
}

const TONES = {
  neutral: 'border-line',
  success: 'border-success/50',
  danger: 'border-danger/50',
} as const;

export function Toaster() {
  const toasts = useSyncExternalStore(
    subscribe,
    () => items,
    () => items,
  );
  return (
    <ToastPrimitive.Provider swipeDirection="right" label="Notifications">
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          type={t.action ? 'foreground' : 'background'}
          duration={t.duration ?? (t.action ? ACTION_MS : DEFAULT_MS)}
          onOpenChange={(open) => {
            if (open) return;
            dismiss(t.id);
            // Leave the closing toast a moment before it goes from the list.
            setTimeout(() => remove(t.id), 200);
          }}
          className={cn(
            'flex items-start gap-3 rounded-lg border bg-surface p-3 text-sm text-fg shadow-lg',
            'data-[state=closed]:opacity-0 data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)]',
            TONES[t.tone ?? 'neutral'],
          )}
        >
          <div className="min-w-0 flex-1">
            <ToastPrimitive.Title className="font-medium">{t.title}</ToastPrimitive.Title>
            {t.description ? (
              <ToastPrimitive.Description className="mt-0.5 text-muted">{t.description}</ToastPrimitive.Description>
            ) : null}
          </div>
          {t.action && (
            <ToastPrimitive.Action altText={t.action.label} asChild>
              <Button size="sm" onClick={t.action.onClick}>
                {t.action.label}
              </Button>
            </ToastPrimitive.Action>
          )}
          <ToastPrimitive.Close asChild>
            <Button size="sm" variant="ghost" aria-label="Close notification" className="px-1.5">
              <X className="size-3.5" aria-hidden />
            </Button>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="fixed right-0 bottom-0 z-[60] m-0 flex w-[min(100vw,24rem)] list-none flex-col gap-2 p-4 outline-none" />
    </ToastPrimitive.Provider>
  );
}
