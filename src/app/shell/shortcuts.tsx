/**
 * The console's keyboard shortcuts: Ctrl/⌘+K opens the command palette, `/` focuses the screen's search box,
 * `?` lists the shortcuts. The palette and the list load on first use; this part is a few lines in the shell.
 */
import { Search } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';

const CommandPalette = lazy(() => import('./command-palette'));
const ShortcutsHelp = lazy(() => import('./shortcuts-help'));

/** Typing in a field, or inside a dialog: single-key shortcuts stay out of the way. */
function typing(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || !!el.closest('[role="dialog"]');
}

/** The search box of the screen: the first search or filter field in the page's main region. */
function screenSearch(): HTMLElement | null {
  return document.querySelector<HTMLElement>(
    'main input[type="search"], main [data-screen-search], main input[aria-label^="Search"], main input[aria-label^="Filter"]',
  );
}

export function Shortcuts() {
  const [palette, setPalette] = useState(false);
  const [help, setHelp] = useState(false);
  const [used, setUsed] = useState({ palette: false, help: false });
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setUsed((u) => ({ ...u, palette: true }));
        setPalette((o) => !o);
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      if (e.key === '/') {
        const box = screenSearch();
        if (box) {
          e.preventDefault();
          box.focus();
        }
      } else if (e.key === '?') {
        e.preventDefault();
        setUsed((u) => ({ ...u, help: true }));
        setHelp(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  return (
    <>
      <button
        ref={button}
        type="button"
        onClick={() => {
          setUsed((u) => ({ ...u, palette: true }));
          setPalette(true);
        }}
        onPointerEnter={() => void import('./command-palette').catch(() => undefined)}
        className="inline-flex h-9 items-center gap-2 rounded-md border border-line px-2.5 text-sm text-muted hover:bg-surface-2"
        aria-keyshortcuts="Control+K Meta+K"
      >
        <Search className="size-4" aria-hidden />
        <span className="hidden sm:inline">Go to…</span>
        <kbd className="hidden rounded border border-line px-1 font-mono text-xs sm:inline">Ctrl K</kbd>
        <span className="sr-only sm:hidden">Go to (command palette)</span>
      </button>
      <Suspense fallback={null}>
        {used.palette && (
          <CommandPalette open={palette} onOpenChange={setPalette} fallbackFocus={() => button.current} />
        )}
        {used.help && <ShortcutsHelp open={help} onOpenChange={setHelp} />}
      </Suspense>
    </>
  );
}
