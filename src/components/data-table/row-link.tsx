/**
 * A row's link to its page, for long lists: an `<a href>` that navigates inside the app on a plain click and
 * preloads the page on intent (hover or focus), as the router's `Link` does, without building the location
 * through the router for every row as it scrolls into view (in a list of sessions that was the largest part of
 * a row's rendering). A click with a modifier key or another button does what the browser does with a link.
 *
 * `href` is the page's path, each dynamic segment encoded: `/sessions/${encodeURIComponent(id)}`. Unlike `Link`,
 * it is not checked against the route tree, so keep it next to the route it names.
 */
import { useRouter } from '@tanstack/react-router';
import { useRef, type MouseEvent, type ReactNode } from 'react';

/** As the router's default: intent must last this long before the page preloads. */
const PRELOAD_DELAY_MS = 50;

export function RowLink({
  href,
  className,
  title,
  children,
}: {
  href: string;
  className?: string;
  title?: string;
  children: ReactNode;
}) {
  const router = useRouter();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const preload = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      // A preload that fails is only a missed head start: the navigation loads the page again.
      router.preloadRoute({ href } as Parameters<typeof router.preloadRoute>[0]).catch(() => {});
    }, PRELOAD_DELAY_MS);
  };
  const cancel = () => clearTimeout(timer.current);
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.altKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    cancel();
    void router.navigate({ href } as Parameters<typeof router.navigate>[0]);
  };
  return (
    <a
      href={href}
      className={className}
      title={title}
      data-row-link
      onClick={onClick}
      onMouseEnter={preload}
      onMouseLeave={cancel}
      onFocus={preload}
      onBlur={cancel}
    >
      {children}
    </a>
  );
}
