/**
 * What a page change does besides rendering: the tab's title names the page and its organization
 * (`Sessions · Platform Engineering · Agent Platform Console`), and focus moves to the new page's heading so a
 * keyboard or screen-reader user lands on, and hears, the page they opened.
 */
import { useQuery } from '@tanstack/react-query';
import { useLocation, useParams } from '@tanstack/react-router';
import { useEffect, useRef, type RefObject } from 'react';
import { organizationQueryOptions } from './organizations';

export const APP_NAME = 'Agent Platform Console';

export function documentTitle(page: string | undefined, organization: string | undefined): string {
  const parts = [page, organization !== page ? organization : undefined, APP_NAME];
  return parts.filter((p): p is string => !!p).join(' · ');
}

/** Sets the tab's title while the page is shown. */
export function usePageTitle(page: string | undefined): void {
  const { orgId } = useParams({ strict: false }) as { orgId?: string };
  const org = useQuery({ ...organizationQueryOptions(orgId ?? ''), enabled: !!orgId });
  const title = documentTitle(page, orgId ? (org.data?.name ?? orgId) : undefined);
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** The path whose heading last took focus; null before the first page (a first load keeps the browser's focus). */
let focusedPath: string | null = null;
/** When it did: a heading that mounts again soon after (the page swapped its loading view) takes focus again. */
let focusedAt = 0;
const REMOUNT_MS = 3_000;

/** Moves focus to `heading` when it belongs to a path other than the last one focused. */
export function useFocusOnPageChange(heading: RefObject<HTMLElement | null>): void {
  const pathname = useLocation({ select: (l) => l.pathname });
  const first = useRef(focusedPath === null);
  useEffect(() => {
    if (focusedPath === pathname) {
      // The same page rendered its heading anew (e.g. after loading): if focus fell to the body meanwhile,
      // put it back on the heading.
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost && Date.now() - focusedAt < REMOUNT_MS) heading.current?.focus({ preventScroll: true });
      return;
    }
    const initial = first.current && focusedPath === null;
    focusedPath = pathname;
    // Not on the first load: the browser's own focus stays.
    if (initial) return;
    focusedAt = Date.now();
    heading.current?.focus({ preventScroll: true });
  }, [pathname, heading]);
}
