/**
 * The "Views" menu of a list screen: open a saved view (its filters come back, through the URL), save the
 * current filters under a name, copy a link to them, delete a view. Views live in this browser.
 */
import { Bookmark, ChevronDown, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { cleanSearch, deleteView, readViews, saveView, VIEW_NAME_MAX, type SavedView } from '@/lib/saved-views';
import { Button } from './ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogTitle } from './ui/dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from './ui/dropdown-menu';
import { Input } from './ui/input';
import { toast } from './ui/toast';

export function SavedViews<S extends object>({
  screen,
  current,
  onOpen,
}: {
  /** The screen's key, e.g. `sessions`. */
  screen: string;
  /** The screen's search as in the URL now. */
  current: S;
  onOpen: (search: S) => void;
}) {
  const [views, setViews] = useState<SavedView[]>(() => readViews(screen));
  const [saving, setSaving] = useState(false);
  const [managing, setManaging] = useState(false);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();

  const save = () => {
    const n = name.trim();
    if (!n) return setError('Give the view a name.');
    if (n.length > VIEW_NAME_MAX) return setError(`At most ${VIEW_NAME_MAX} characters.`);
    setViews(saveView(screen, { name: n, search: cleanSearch(current as Record<string, unknown>) }));
    setSaving(false);
    setName('');
    setError(null);
    toast({ tone: 'success', title: `View “${n}” saved`, description: 'Open it from the Views menu.' });
  };

  return (
    <>
      <DropdownMenu onOpenChange={(o) => o && setViews(readViews(screen))}>
        <DropdownMenuTrigger asChild>
          <Button size="sm">
            <Bookmark className="size-3.5" aria-hidden />
            Views
            <ChevronDown className="size-3.5" aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-64">
          <DropdownMenuLabel>Saved views</DropdownMenuLabel>
          {views.length === 0 ? (
            <p className="px-2 py-1 text-xs text-muted">None yet: save the current filters.</p>
          ) : (
            views.map((v) => (
              <DropdownMenuItem key={v.name} onSelect={() => onOpen(v.search as S)}>
                <span className="truncate">{v.name}</span>
              </DropdownMenuItem>
            ))
          )}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setSaving(true)}>Save current view…</DropdownMenuItem>
          <DropdownMenuItem
            onSelect={() =>
              void navigator.clipboard?.writeText(window.location.href).then(
                () => toast({ title: 'Link to this view copied' }),
                () => toast({ tone: 'danger', title: 'Could not copy the link', description: window.location.href }),
              )
            }
          >
            Copy link to this view
          </DropdownMenuItem>
          {views.length > 0 && <DropdownMenuItem onSelect={() => setManaging(true)}>Manage views…</DropdownMenuItem>}
        </DropdownMenuContent>
      </DropdownMenu>

      <Dialog open={saving} onOpenChange={setSaving}>
        <DialogContent>
          <DialogTitle>Save the current view</DialogTitle>
          <DialogDescription className="mt-1 text-sm text-muted">
            The current filters, under a name, in this browser. A view with the same name is replaced.
          </DialogDescription>
          <form
            className="mt-3 flex flex-col gap-1 text-sm"
            onSubmit={(e) => {
              e.preventDefault();
              save();
            }}
          >
            <label htmlFor={nameId}>Name</label>
            <Input
              id={nameId}
              value={name}
              autoFocus
              aria-invalid={!!error}
              aria-describedby={`${nameId}-hint`}
              onChange={(e) => setName(e.target.value)}
            />
            <p id={`${nameId}-hint`} className={error ? 'text-xs text-danger' : 'text-xs text-muted'}>
              {error ?? `${name.trim().length} / ${VIEW_NAME_MAX} characters`}
            </p>
            <DialogFooter>
              <Button type="button" onClick={() => setSaving(false)}>
                Cancel
              </Button>
              <Button type="submit" variant="primary">
                Save view
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>

      <Dialog open={managing} onOpenChange={setManaging}>
        <DialogContent>
          <DialogTitle>Saved views</DialogTitle>
          <DialogDescription className="mt-1 text-sm text-muted">Kept in this browser only.</DialogDescription>
          <ul className="mt-3 divide-y divide-line rounded-md border border-line text-sm">
            {views.map((v) => (
              <li key={v.name} className="flex items-center justify-between gap-2 px-3 py-1.5">
                <span className="truncate">{v.name}</span>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Delete view ${v.name}`}
                  onClick={() => setViews(deleteView(screen, v.name))}
                >
                  <Trash2 className="size-3.5" aria-hidden />
                </Button>
              </li>
            ))}
          </ul>
          {views.length === 0 && <p className="mt-2 text-sm text-muted">No saved views.</p>}
        </DialogContent>
      </Dialog>
    </>
  );
}
