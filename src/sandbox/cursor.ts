/**
 * Opaque, stable cursors: keyset pagination over an ORDER BY whose last column is unique. A cursor holds the
 * sort values of the last item served, so items added meanwhile are never skipped or served twice.
 */
import type { Page } from '../api/page';
import type { Db } from '../node/db';
import { unprocessable } from '../node/problem-writer';

type SqlValue = string | number | null;

export interface OrderColumn {
  /** A column expression of the query. */
  col: string;
  dir: 'asc' | 'desc';
}

export interface PaginateOptions<Row, Item> {
  /** Names the list, so a cursor of one list is refused by another. */
  scope: string;
  /** `SELECT … FROM … ` (no WHERE). */
  select: string;
  /** WHERE conditions and their parameters, ANDed. */
  where?: Array<[string, ...SqlValue[]]>;
  /** The sort; the last column must be unique (an id). */
  order: readonly OrderColumn[];
  first: number;
  after?: string | null | undefined;
  /** Also count every match (the envelope's optional `total`). */
  withTotal?: boolean;
  map: (row: Row) => Item;
}

interface CursorPayload {
  s: string;
  k: SqlValue[];
}

export function encodeCursor(payload: CursorPayload): string {
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export const CURSOR_ERROR = {
  loc: ['query', 'after'],
  msg: 'after is not a cursor returned by this list',
  type: 'cursor',
};

/** Reads a cursor's payload, or null when it is not one this sandbox wrote. */
export function readCursor(cursor: string): CursorPayload | null {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(cursor)) return null;
  try {
    const p = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorPayload> | null;
    if (!p || typeof p !== 'object' || typeof p.s !== 'string' || !Array.isArray(p.k)) return null;
    return p as CursorPayload;
  } catch {
    return null;
  }
}

export function decodeCursor(cursor: string, scope: string, width: number): SqlValue[] {
  const bad = () => unprocessable([CURSOR_ERROR]);
  const p = readCursor(cursor);
  if (
    !p ||
    p.s !== scope ||
    !Array.isArray(p.k) ||
    p.k.length !== width ||
    !p.k.every((v) => v === null || typeof v === 'string' || typeof v === 'number')
  ) {
    throw bad();
  }
  return p.k;
}

function keysetCondition(order: readonly OrderColumn[], values: SqlValue[]): [string, SqlValue[]] {
  const ors: string[] = [];
  const params: SqlValue[] = [];
  for (let i = 0; i < order.length; i++) {
    const ands: string[] = [];
    for (let j = 0; j < i; j++) {
      ands.push(`${order[j]!.col} = ?`);
      params.push(values[j]!);
    }
    ands.push(`${order[i]!.col} ${order[i]!.dir === 'asc' ? '>' : '<'} ?`);
    params.push(values[i]!);
    ors.push(`(${ands.join(' AND ')})`);
  }
  return [`(${ors.join(' OR ')})`, params];
}

/** The sort values of a row, read by column alias (the part after the last dot or `AS`). */
function rowKey(row: Record<string, unknown>, order: readonly OrderColumn[]): SqlValue[] {
  return order.map(({ col }) => {
    const name = col
      .split(/\s+as\s+|\./i)
      .pop()!
      .trim();
    return (row[name] ?? null) as SqlValue;
  });
}

export function paginate<Row extends Record<string, unknown>, Item>(
  db: Db,
  opts: PaginateOptions<Row, Item>,
): Page<Item> {
  const conds = (opts.where ?? []).map(([sql]) => sql);
  const params: SqlValue[] = (opts.where ?? []).flatMap(([, ...p]) => p);
  const baseWhere = conds.length ? `WHERE ${conds.join(' AND ')}` : '';
  let total: number | undefined;
  if (opts.withTotal !== false) {
    const countSql = `SELECT count(*) AS n FROM (${opts.select} ${baseWhere})`;
    total = (db.prepare(countSql).get(...params) as { n: number }).n;
  }
  const pageConds = [...conds];
  const pageParams = [...params];
  if (opts.after) {
    const values = decodeCursor(opts.after, opts.scope, opts.order.length);
    const [sql, p] = keysetCondition(opts.order, values);
    pageConds.push(sql);
    pageParams.push(...p);
  }
  const where = pageConds.length ? `WHERE ${pageConds.join(' AND ')}` : '';
  const orderBy = opts.order.map((o) => `${o.col} ${o.dir.toUpperCase()}`).join(', ');
  const rows = db
    .prepare(`${opts.select} ${where} ORDER BY ${orderBy} LIMIT ?`)
    .all(...pageParams, opts.first + 1) as Row[];
  const hasNext = rows.length > opts.first;
  const pageRows = hasNext ? rows.slice(0, opts.first) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    items: pageRows.map(opts.map),
    end_cursor: hasNext && last ? encodeCursor({ s: opts.scope, k: rowKey(last, opts.order) }) : null,
    has_next_page: hasNext,
    ...(total !== undefined ? { total } : {}),
  };
}
