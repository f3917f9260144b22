/**
 * The command palette (Ctrl/⌘+K): one search box over the console's screens, the enterprise's
 * organizations, recent sessions (by title) and knowledge notes (by name). Arrow keys move through the
 * results, Enter opens one, Escape closes and focus returns where it was. A screen the signed-in person's console
 * roles (or the console's credential) do not allow stays listed but disabled, saying why. Loaded on first use.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useNavigate, useParams, type LinkOptions } from '@tanstack/react-router';
import { Search } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { useActiveOption } from '@/components/ui/use-active-option';
import { cn } from '@/lib/cn';
import { apiCall } from '@/lib/api-client';
import { cursorInfiniteQueryOptions } from '@/lib/cursor-query';
import { useDebounced } from '@/lib/debounce';
import { lastOrg } from '@/lib/last-org';
import { ENTERPRISE_NAV, organizationNav } from '@/lib/nav';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { usePermissionCheck, type PermissionVerdict } from '@/lib/principal';

interface Result {
  id: string;
  group: 'Screens' | 'Organizations' | 'Sessions' | 'Notes';
  label: string;
  detail?: string;
  to: LinkOptions;
  /** Why it cannot be opened (the person's console roles or the credential refuse it); listed, not opened. */
  disabled?: string;
}

/** Sessions the palette reads (newest first), page by page while the search finds too few. */
const SESSION_PAGES = 10;
const MAX_PER_GROUP = 8;

const palettesSessions = cursorInfiniteQueryOptions({
  queryKey: ['command-palette', 'sessions'] as const,
  page: (after, signal) => apiCall('sessions.enterprise.list', { query: { first: 100, after }, signal }),
  staleTime: 30_000,
});

type Note = { note_id: string; name: string; org_id?: string | null; folder_path: string; trigger: string };

/** A note's short trigger, to tell apart notes of the same name in the same folder. */
const TRIGGER_CHARS = 40;

/**
 * Notes as results: notes of the same name in several organizations and folders are common ("Deploy"), so each
 * says where it lives (its organization, or the enterprise, and folder); two still alike add their trigger.
 */
export function noteList(notes: readonly Note[], orgName: ReadonlyMap<string, string>): Result[] {
  const where = (n: Note) =>
    `${n.org_id ? (orgName.get(n.org_id) ?? n.org_id) : 'Enterprise'} · ${n.folder_path.trim() || 'no folder'}`;
  const seen = new Map<string, number>();
  for (const n of notes) seen.set(`${n.name}\n${where(n)}`, (seen.get(`${n.name}\n${where(n)}`) ?? 0) + 1);
  return notes.map((n) => {
    const trigger = n.trigger.trim();
    const alike = (seen.get(`${n.name}\n${where(n)}`) ?? 0) > 1 && trigger !== '';
    const short = trigger.length > TRIGGER_CHARS ? `${trigger.slice(0, TRIGGER_CHARS - 1)}…` : trigger;
    return {
      id: `note:${n.note_id}`,
      group: 'Notes',
      label: n.name,
      detail: alike ? `${where(n)} · “${short}”` : where(n),
      to: n.org_id
        ? { to: '/orgs/$orgId/knowledge/$noteId', params: { orgId: n.org_id, noteId: n.note_id } }
        : { to: '/knowledge/$noteId', params: { noteId: n.note_id } },
    };
  });
}

type Check = (
  permission: Parameters<ReturnType<typeof usePermissionCheck>>[0],
  orgId: string | null,
) => PermissionVerdict;

/** The screens as results: the enterprise's, and those of the organization on screen (or the last one opened). */
export function screenResults(orgId: string | undefined, orgName: ReadonlyMap<string, string>, check: Check): Result[] {
  const refusal = (permission: Parameters<Check>[0], org: string | null) => {
    const v = check(permission, org);
    return v.allowed === false ? v.reason : undefined;
  };
  return [
    ...ENTERPRISE_NAV.map(({ label, exact: _exact, permission, operation: _op, ...to }) => ({
      id: `screen:${label}`,
      group: 'Screens' as const,
      label,
      detail: 'Enterprise',
      to,
      disabled: refusal(permission, null),
    })),
    ...(orgId
      ? organizationNav(orgId).map(({ label, exact: _exact, permission, operation: _op, ...to }) => ({
          id: `org-screen:${label}`,
          group: 'Screens' as const,
          label,
          detail: orgName.get(orgId) ?? orgId,
          to,
          disabled: refusal(permission, orgId),
        }))
      : []),
  ];
}

/** What the palette finds for the text typed: its queries, read while it is open, and the results in groups. */
function usePaletteResults(open: boolean, text: string) {
  const { orgId: routeOrg } = useParams({ strict: false }) as { orgId?: string };
  const orgId = routeOrg ?? lastOrg() ?? undefined;
  const q = text.trim().toLowerCase();
  const debounced = useDebounced(q, 200);
  const check = usePermissionCheck();

  const orgs = useInfiniteQuery({ ...organizationsInfiniteQueryOptions(), enabled: open });
  const sessions = useInfiniteQuery({ ...palettesSessions, enabled: open });
  const notes = useQuery({
    queryKey: ['command-palette', 'notes', debounced],
    queryFn: ({ signal }) => apiCall('knowledge.enterprise.list', { query: { first: 20, search: debounced }, signal }),
    enabled: open && debounced.length >= 2,
    staleTime: 30_000,
  });

  const orgList = useMemo(() => orgs.data?.pages.flatMap((p) => p.items) ?? [], [orgs.data]);
  const orgName = useMemo(() => new Map(orgList.map((o) => [o.org_id, o.name])), [orgList]);
  const sessionList = useMemo(() => sessions.data?.pages.flatMap((p) => p.items) ?? [], [sessions.data]);

  const results = useMemo<Result[]>(() => {
    const match = (...fields: Array<string | null | undefined>) =>
      !q || fields.some((f) => f?.toLowerCase().includes(q));
    const screens = screenResults(orgId, orgName, check).filter((r) => match(r.label, r.detail));
    const organizations: Result[] = orgList
      .filter((o) => match(o.name, o.org_id))
      .slice(0, MAX_PER_GROUP)
      .map((o) => ({
        id: `org:${o.org_id}`,
        group: 'Organizations',
        label: o.name,
        detail: o.org_id,
        to: { to: '/orgs/$orgId', params: { orgId: o.org_id } },
      }));
    const sessionResults: Result[] = q
      ? sessionList
          .filter((s) => match(s.title, s.session_id))
          .slice(0, MAX_PER_GROUP)
          .map((s) => ({
            id: `session:${s.session_id}`,
            group: 'Sessions',
            label: s.title || s.session_id,
            detail: `${orgName.get(s.org_id) ?? s.org_id} · ${s.status}`,
            to: { to: '/orgs/$orgId/sessions/$sessionId', params: { orgId: s.org_id, sessionId: s.session_id } },
          }))
      : [];
    const noteResults: Result[] =
      q && debounced === q ? noteList(notes.data?.items ?? [], orgName).slice(0, MAX_PER_GROUP) : [];
    return [...screens, ...organizations, ...sessionResults, ...noteResults];
  }, [q, debounced, orgId, orgList, orgName, sessionList, notes.data, check]);

  // Few matching sessions among those read: read older pages (bounded) while the admin searches.
  const sessionMatches = results.filter((r) => r.group === 'Sessions').length;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = sessions;
  const sessionPages = sessions.data?.pages.length ?? 0;
  useEffect(() => {
    if (
      open &&
      q.length >= 2 &&
      sessionMatches < MAX_PER_GROUP &&
      hasNextPage &&
      !isFetchingNextPage &&
      sessionPages < SESSION_PAGES
    )
      void fetchNextPage();
  }, [open, q, sessionMatches, hasNextPage, isFetchingNextPage, sessionPages, fetchNextPage]);

  const searching =
    q.length >= 2 && ((sessions.isFetching && sessionMatches === 0) || (notes.isFetching && debounced === q));
  return { results, searching };
}

/** The results, grouped under their kind's header; a disabled screen says why in place of where it is. */
function ResultList({
  results,
  listRef,
  listId,
  activeIndex,
  activeDescendant,
  optionId,
  setActive,
  onKeyDown,
  go,
}: {
  results: Result[];
  listRef: RefObject<HTMLUListElement | null>;
  listId: string;
  activeIndex: number;
  activeDescendant: string | undefined;
  optionId: (i: number) => string;
  setActive: (i: number) => void;
  onKeyDown: (e: KeyboardEvent<HTMLElement>) => void;
  go: (r: Result) => void;
}) {
  return (
    // In the tab order (a scrolling region a keyboard must reach) and driven by the same keys as the box.
    <ul
      ref={listRef}
      id={listId}
      role="listbox"
      aria-label="Results"
      tabIndex={0}
      aria-activedescendant={activeDescendant}
      onKeyDown={onKeyDown}
      className="max-h-96 overflow-y-auto p-1 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent"
    >
      {results.map((r, i) => {
        const header = i === 0 || results[i - 1]!.group !== r.group ? r.group : null;
        return (
          <li key={r.id} role="presentation">
            {header && (
              <p className="px-2 pt-2 pb-1 text-xs font-semibold tracking-wide text-muted uppercase" aria-hidden>
                {header}
              </p>
            )}
            <div
              id={optionId(i)}
              data-index={i}
              role="option"
              aria-selected={i === activeIndex}
              aria-disabled={r.disabled ? true : undefined}
              onMouseMove={() => setActive(i)}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => go(r)}
              className={cn(
                'flex cursor-default flex-wrap items-baseline justify-between gap-x-3 rounded px-2 py-1.5 text-sm aria-selected:bg-surface-2',
                r.disabled && 'text-muted',
              )}
            >
              {/* The name is the text shown (WCAG 2.5.3), spaced, with the kind of result for a screen reader. */}
              <span className="min-w-0 truncate">{r.label}</span>{' '}
              {r.detail && <span className="min-w-0 shrink truncate text-xs text-muted">{r.detail}</span>}
              {/* Why it cannot be opened, on a line of its own. */}
              {r.disabled && <span className="w-full text-xs">{r.disabled}</span>}
              <span className="sr-only"> ({r.group.replace(/s$/, '').toLowerCase()})</span>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export default function CommandPalette({
  open,
  onOpenChange,
  fallbackFocus,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  /** Where focus goes on close when nothing had it at opening (Ctrl+K on the page itself): the palette's button. */
  fallbackFocus?: () => HTMLElement | null;
}) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const { results, searching } = usePaletteResults(open, text);

  // Where Enter or a click goes: navigation waits until the dialog has closed, so focus lands on the new
  // page's heading instead of going back to where the palette was opened.
  const target = useRef<LinkOptions | null>(null);
  const input = useRef<HTMLInputElement>(null);
  /** What had focus when the palette opened: focus goes back there when it closes without going anywhere. */
  const openedFrom = useRef<Element | null>(null);
  const go = (r: Result) => {
    // A screen the person may not open stays where it is: its reason is on the line.
    if (r.disabled) return;
    target.current = r.to;
    onOpenChange(false);
    setText('');
  };
  const active = useActiveOption(results, { open, page: 8, onChoose: go });
  const { activeIndex, setActive, onKeyDown, listRef, listId, optionId, activeDescendant } = active;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="top-24 w-[min(92vw,36rem)] translate-y-0 p-0"
        // The search box takes focus here, not with `autoFocus`: focused while mounting, it would be taken for
        // the element that opened the palette, and focus would go back to it (gone) on close: to the body.
        onOpenAutoFocus={(e) => {
          openedFrom.current = document.activeElement;
          e.preventDefault();
          input.current?.focus();
        }}
        onCloseAutoFocus={(e) => {
          const to = target.current;
          const from = openedFrom.current;
          openedFrom.current = null;
          if (to) {
            target.current = null;
            e.preventDefault();
            void navigate(to);
            return;
          }
          if (from instanceof HTMLElement && from !== document.body && from.isConnected) return;
          const fallback = fallbackFocus?.();
          if (!fallback) return;
          e.preventDefault();
          fallback.focus();
        }}
      >
        <DialogTitle className="sr-only">Command palette</DialogTitle>
        <DialogDescription className="sr-only">
          Jump to a screen, an organization, a session or a note by name.
        </DialogDescription>
        <div className="flex items-center gap-2 border-b border-line px-3">
          <Search className="size-4 text-muted" aria-hidden />
          <input
            ref={input}
            type="text"
            aria-label="Search screens, organizations, sessions and notes"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={activeDescendant}
            placeholder="Go to a screen, organization, session or note…"
            autoComplete="off"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
            className="h-12 flex-1 bg-transparent text-sm outline-none placeholder:text-muted"
          />
        </div>
        <ResultList
          results={results}
          listRef={listRef}
          listId={listId}
          activeIndex={activeIndex}
          activeDescendant={activeDescendant}
          optionId={optionId}
          setActive={setActive}
          onKeyDown={onKeyDown}
          go={go}
        />
        <p className="border-t border-line px-3 py-2 text-xs text-muted" role="status">
          {searching
            ? 'Searching…'
            : results.length === 0
              ? `Nothing matches “${text.trim()}”.`
              : '↑ ↓ to move · Enter to open · Esc to close'}
        </p>
      </DialogContent>
    </Dialog>
  );
}
