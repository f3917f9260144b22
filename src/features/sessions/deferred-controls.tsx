/**
 * Controls of the sessions screens whose menus load on first use. Until then each is a plain button with the
 * look, role, name and state of the real one (the filters' summaries, the select's value), so the first paint
 * shows every filter as it is in the URL without Radix's menus; pointing at it or focusing it starts loading
 * `control-menus.tsx`, and using it mounts the real control there, opened.
 */
import { Bookmark, ChevronDown } from 'lucide-react';
import { lazy, Suspense, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import type { SessionSearch } from './filters';

export const loadMenus = () => import('./control-menus');
const preloadMenus = () => void loadMenus().catch(() => undefined);

const ChoiceSelectMenu = lazy(() => loadMenus().then((m) => ({ default: m.ChoiceSelectMenu })));
const SavedViewsMenu = lazy(() => loadMenus().then((m) => ({ default: m.SavedViewsMenu })));

/** How a deferred control was first used (its menu opens the same way), or `null` before. */
export type FirstUse = 'pointer' | 'keyboard' | null;

/**
 * A deferred control's state and the handlers of its stand-in: preload on hover and focus, mount the real
 * control on activation (a click, or Enter/Space, which browsers turn into a click of `detail` 0).
 */
export function useFirstUse() {
  const [used, setUsed] = useState<FirstUse>(null);
  const standIn = {
    onPointerEnter: preloadMenus,
    onFocus: preloadMenus,
    onClick: (e: MouseEvent) => {
      preloadMenus();
      setUsed(e.detail === 0 ? 'keyboard' : 'pointer');
    },
  };
  return [used, standIn, setUsed] as const;
}

/**
 * A small select (refresh interval, archived): a `combobox` button showing the chosen option's label, as the
 * shared Select's trigger renders it (keep its classes in step with `SelectTrigger` in components/ui/select.tsx).
 */
export function ChoiceSelect({
  id,
  value,
  onValueChange,
  options,
  className,
}: {
  id?: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Values must not be empty (Radix reserves `''` for "nothing chosen"). */
  options: ReadonlyArray<{ value: string; label: string }>;
  className?: string;
}) {
  const [used, standIn, setUsed] = useFirstUse();
  const label = options.find((o) => o.value === value)?.label ?? '';
  const button = (
    <button
      type="button"
      id={id}
      role="combobox"
      aria-expanded={false}
      aria-autocomplete="none"
      data-state="closed"
      className={cn(
        'inline-flex w-full min-w-0 items-center justify-between gap-2 rounded-md border border-line bg-surface text-left text-fg',
        'focus-visible:border-accent focus-visible:outline-2 focus-visible:outline-accent/30',
        'h-7 px-2 text-xs',
        className,
      )}
      {...standIn}
      // The shared select also opens on the arrow keys.
      onKeyDown={(e: KeyboardEvent) => {
        if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
        e.preventDefault();
        setUsed('keyboard');
      }}
    >
      <span className="min-w-0 truncate">
        <span>{label}</span>
      </span>
      <ChevronDown className="size-3.5 shrink-0 text-muted" aria-hidden />
    </button>
  );
  if (!used) return button;
  return (
    <Suspense fallback={button}>
      <ChoiceSelectMenu id={id} value={value} onValueChange={onValueChange} options={options} className={className} />
    </Suspense>
  );
}

/** The "Views" menu of a sessions list (components/saved-views.tsx), loaded on first use. */
export function DeferredSavedViews(props: {
  screen: string;
  current: SessionSearch;
  onOpen: (search: SessionSearch) => void;
}) {
  const [used, standIn] = useFirstUse();
  const button = (
    <Button size="sm" aria-haspopup="menu" aria-expanded={false} data-state="closed" {...standIn}>
      <Bookmark className="size-3.5" aria-hidden />
      Views
      <ChevronDown className="size-3.5" aria-hidden />
    </Button>
  );
  if (!used) return button;
  return (
    <Suspense fallback={button}>
      <SavedViewsMenu openWith={used} {...props} />
    </Suspense>
  );
}
