/**
 * Saved views: named filter sets per screen, kept in this browser (localStorage). A view is the screen's URL
 * search; opening one navigates to it, so it is also a link that can be shared.
 */
export interface SavedView {
  name: string;
  search: Record<string, unknown>;
}

export const VIEW_NAME_MAX = 60;
export const VIEWS_MAX = 50;
const key = (screen: string) => `console-views:${screen}`;

export function readViews(screen: string): SavedView[] {
  try {
    const raw: unknown = JSON.parse(localStorage.getItem(key(screen)) ?? '[]');
    if (!Array.isArray(raw)) return [];
    return raw
      .filter(
        (v): v is SavedView =>
          typeof v === 'object' &&
          v !== null &&
          typeof (v as SavedView).name === 'string' &&
          typeof (v as SavedView).search === 'object' &&
          (v as SavedView).search !== null,
      )
      .slice(0, VIEWS_MAX);
  } catch {
    return [];
  }
}

function writeViews(screen: string, views: SavedView[]): void {
  try {
    localStorage.setItem(key(screen), JSON.stringify(views));
  } catch {
    // storage full or unavailable: the views of this session are lost, the screen still works
  }
}

/** Saves (or replaces, by name) a view; answers the views now kept. */
export function saveView(screen: string, view: SavedView): SavedView[] {
  const next = [view, ...readViews(screen).filter((v) => v.name !== view.name)].slice(0, VIEWS_MAX);
  writeViews(screen, next);
  return next;
}

export function deleteView(screen: string, name: string): SavedView[] {
  const next = readViews(screen).filter((v) => v.name !== name);
  writeViews(screen, next);
  return next;
}

/** The search without empty values, as a view keeps it. */
export function cleanSearch(search: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined && v !== '' && v !== null));
}
