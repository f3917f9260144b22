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
import { useSyncExternalStore } from 'react';
import { cn } from '@/lib/cn';
import { Button } from './button';
import { ACTION_MS, DEFAULT_MS, dismiss, getToasts, remove, subscribe } from './toast-store';

const TONES = {
  neutral: 'border-line',
  success: 'border-success/50',
  danger: 'border-danger/50',
} as const;

export default function ToastView() {
  const toasts = useSyncExternalStore(subscribe, getToasts, getToasts);
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
