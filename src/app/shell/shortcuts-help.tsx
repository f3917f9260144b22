/** The keyboard shortcuts, listed (`?`). Loaded on first use. */
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';

export const SHORTCUTS: ReadonlyArray<[keys: string, what: string]> = [
  ['Ctrl K / ⌘ K', 'Open the command palette: go to a screen, organization, session or note'],
  ['/', "Focus the screen's search or filter box"],
  ['?', 'Show these shortcuts'],
  ['↑ ↓', 'Move between rows of a list; Enter opens, Space selects'],
  ['Esc', 'Close a dialog, menu or panel'],
];

export default function ShortcutsHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle>Keyboard shortcuts</DialogTitle>
        <DialogDescription className="sr-only">The keys the console answers to.</DialogDescription>
        <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          {SHORTCUTS.map(([keys, what]) => (
            <div key={keys} className="contents">
              <dt>
                <kbd className="rounded border border-line bg-surface-2 px-1.5 py-0.5 font-mono text-xs">{keys}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      </DialogContent>
    </Dialog>
  );
}
