/**
 * Work that can wait until the first screen is on screen: the code of the shell's menus and tooltips, which no
 * first screen shows, loads when the browser is idle after the app's first render instead of with the entry.
 */

/** Runs `fn` once the browser is idle (within `timeout` ms at the latest); answers a function that cancels it. */
export function whenIdle(fn: () => void, timeout = 2000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(fn, { timeout });
    return () => window.cancelIdleCallback(id);
  }
  // Safari has no requestIdleCallback: a moment after the first render instead.
  const id = window.setTimeout(fn, 200);
  return () => window.clearTimeout(id);
}
