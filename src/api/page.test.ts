/** The one paging walker: follows cursors unchanged and stops at every bound. */
import { describe, expect, it } from 'vitest';
import { PagingLimitError, readAllPages, type Page } from './page';

const pages = (n: number, perPage = 2): ((after?: string) => Promise<Page<number>>) => {
  return async (after) => {
    const i = after ? Number(after.slice(1)) : 0;
    const items = Array.from({ length: perPage }, (_, k) => i * perPage + k);
    return { items, has_next_page: i + 1 < n, end_cursor: i + 1 < n ? `c${i + 1}` : null };
  };
};

describe('readAllPages', () => {
  it('reads every page, passing each cursor back unchanged', async () => {
    const seen: Array<string | undefined> = [];
    const fetch = pages(3);
    const items = await readAllPages(async (after) => {
      seen.push(after);
      return fetch(after);
    });
    expect(items).toEqual([0, 1, 2, 3, 4, 5]);
    expect(seen).toEqual([undefined, 'c1', 'c2']);
  });

  it('stops at the page cap, the item cap and a repeated cursor', async () => {
    await expect(readAllPages(pages(10), { maxPages: 3 })).rejects.toMatchObject({ reason: 'pages' });
    await expect(readAllPages(pages(10), { maxItems: 5 })).rejects.toMatchObject({ reason: 'items' });
    const loop = async (): Promise<Page<number>> => ({ items: [1], has_next_page: true, end_cursor: 'same' });
    await expect(readAllPages(loop)).rejects.toBeInstanceOf(PagingLimitError);
  });

  it('stops when aborted', async () => {
    const ctl = new AbortController();
    ctl.abort(new Error('gone'));
    await expect(readAllPages(pages(3), { signal: ctl.signal })).rejects.toThrow('gone');
  });

  it('ends on a last page that says has_next_page false, whatever its cursor', async () => {
    const items = await readAllPages(async () => ({ items: [1], has_next_page: false, end_cursor: 'x' }));
    expect(items).toEqual([1]);
  });
});
