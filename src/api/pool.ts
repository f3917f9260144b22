/**
 * Bounded concurrency for many calls of one kind, kept in order: the browser (remediating findings, reading each
 * organization's totals, each person's consumption) and the console server (each person's consumption) both walk
 * lists this way. No fetch, React or Node here: a plain helper of the contract's, like the page walk.
 */

/** Runs `fn` over `items` with at most `limit` at a time; the answers keep the items' order. */
export async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
