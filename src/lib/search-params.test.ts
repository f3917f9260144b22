import { describe, expect, it } from 'vitest';
import { parseSearch, stringifySearch } from './search-params';

describe('URL search values', () => {
  it('keeps words plain in the URL and reads them back as strings', () => {
    const url = stringifySearch({ archived: 'false', status: 'running,blocked', q: 'true' });
    expect(url).toBe('?archived=false&status=running%2Cblocked&q=true');
    expect(parseSearch(url)).toEqual({ archived: 'false', status: 'running,blocked', q: 'true' });
  });

  it('round-trips numbers, lists and strings that look like numbers', () => {
    const search = { created_after: 1700000000, ids: ['a', 'b'], q: '123', neg: '-5x' };
    const back = parseSearch(stringifySearch(search));
    expect(back).toEqual(search);
    expect(typeof back.created_after).toBe('number');
    expect(back.q).toBe('123');
  });

  it('never throws on a hand-edited URL', () => {
    expect(parseSearch('?a=%7Bbroken&b=%5B1&c=')).toEqual({ a: '{broken', b: '[1', c: '' });
  });

  it('reads repeated keys as a list, and a __proto__ key as a plain key', () => {
    const back = parseSearch('?tag=a&tag=b&__proto__=x');
    expect(back.tag).toEqual(['a', 'b']);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.keys(back)).toContain('__proto__');
  });
});
