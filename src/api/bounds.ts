/**
 * Bounds on what a JSON request may hold before any schema looks at it, so one request cannot make the
 * validator allocate without limit (ten million `{}` items, or a thousand levels of nesting): depth, values
 * in all and items per array. Checked by the sandbox and the console server on every body they parse.
 */
import type { FieldError } from './problem';

export interface JsonBounds {
  maxDepth: number;
  /** Values of every kind, counted over the whole document. */
  maxNodes: number;
  /** Items of any one array. */
  maxArrayItems: number;
}

export const DEFAULT_JSON_BOUNDS: JsonBounds = { maxDepth: 32, maxNodes: 200_000, maxArrayItems: 10_000 };

/** The first bound a parsed JSON value breaks, as a field error at its place; null when within bounds. */
export function checkJsonBounds(
  value: unknown,
  where: 'body' | 'query',
  bounds: JsonBounds = DEFAULT_JSON_BOUNDS,
): FieldError | null {
  let nodes = 0;
  // Iterative, so a deeply nested document cannot overflow the stack here.
  const stack: Array<{ v: unknown; depth: number; path: Array<string | number> }> = [{ v: value, depth: 0, path: [] }];
  while (stack.length > 0) {
    const { v, depth, path } = stack.pop()!;
    if (++nodes > bounds.maxNodes) {
      return { loc: [where], msg: `The request holds more than ${bounds.maxNodes} values`, type: 'too_big' };
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= bounds.maxDepth) {
      return { loc: [where, ...path], msg: `Nested deeper than ${bounds.maxDepth} levels`, type: 'too_deep' };
    }
    if (Array.isArray(v)) {
      if (v.length > bounds.maxArrayItems) {
        return {
          loc: [where, ...path],
          msg: `At most ${bounds.maxArrayItems} items in one list; this one has ${v.length}`,
          type: 'too_big',
        };
      }
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, path: [...path, i] });
    } else {
      for (const [k, child] of Object.entries(v)) stack.push({ v: child, depth: depth + 1, path: [...path, k] });
    }
  }
  return null;
}
