/**
 * Conventions that hold across the Agent Platform API v3 (spec: "Resources and their fields → Conventions").
 * Shared by the browser, the console server and the sandbox; no runtime dependencies beyond zod.
 */
import { z } from 'zod';

/** Identifier prefixes. `org-` and `cog_` are the spec's; the others are the ones the sandbox mints. */
export const ID_PREFIX = {
  organization: 'org-',
  credential: 'cog_',
  session: 'session-',
  note: 'note-',
  folder: 'folder-',
  build: 'build-',
  gitPermission: 'gitperm-',
  gitConnection: 'gitconn-',
  job: 'job-',
  auditLog: 'audit-',
  serviceUser: 'service-user-',
  user: 'user-',
  event: 'event-',
} as const;

/** A timestamp: integer Unix time in seconds. */
export const UnixSeconds = z.number().int().nonnegative();

export const OrgId = z
  .string()
  .startsWith(ID_PREFIX.organization, { message: `Organization ids start with "${ID_PREFIX.organization}"` });

/** Page size limits of every paginated list. */
export const PAGE_SIZE = { min: 1, max: 200, default: 100 } as const;

/** Parses a query-string value into an integer, refusing anything that is not written as one. */
export function queryInt(opts: { min?: number; max?: number; name: string }) {
  const { min, max, name } = opts;
  const range =
    min !== undefined && max !== undefined
      ? ` from ${min} to ${max}`
      : min !== undefined
        ? ` of at least ${min}`
        : max !== undefined
          ? ` of at most ${max}`
          : '';
  const message = `${name} must be an integer${range}`;
  return z
    .union([z.string(), z.number()])
    .transform((v, ctx) => {
      const s = String(v).trim();
      if (!/^-?\d+$/.test(s)) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      const n = Number(s);
      if ((min !== undefined && n < min) || (max !== undefined && n > max)) {
        ctx.addIssue({ code: 'custom', message: `${message}; got ${s}` });
        return z.NEVER;
      }
      return n;
    })
    .meta({
      type: 'integer',
      ...(min !== undefined ? { minimum: min } : {}),
      ...(max !== undefined ? { maximum: max } : {}),
    });
}

/** `first`: the page size of every paginated list (1–200, default 100): handlers read the parsed value. */
export const First = queryInt({ ...PAGE_SIZE, name: 'first' }).default(PAGE_SIZE.default);

/** `after`: the `end_cursor` of the previous page, passed back unchanged. */
export const After = z.string().min(1, 'after must be a cursor returned as end_cursor').nullish();

/** A boolean query parameter: `true`/`false` (also `1`/`0`). */
export const QueryBoolean = z
  .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1');

/**
 * An array query parameter. Accepts repeated keys (`tags=a&tags=b`) and comma-joined values (`tags=a,b`);
 * the sandbox hands repeated keys over as an array, a single key as a string.
 */
export function queryArray<T extends z.ZodType>(item: T, max?: { count: number; what: string }) {
  const list = z.array(item);
  return z.preprocess(
    (v) => {
      const raw = Array.isArray(v) ? v : v === undefined ? undefined : [v];
      return raw
        ?.flatMap((x) => String(x).split(','))
        .map((x) => x.trim())
        .filter((x) => x.length > 0);
    },
    (max ? list.max(max.count, { error: countMessage(max.count, max.what) }) : list).optional(),
  );
}

/** The message of an array's `.max()`: the limit and how many were sent ("at most 100 org_ids; got 101"). */
export const countMessage =
  (max: number, what: string) =>
  (issue: { input?: unknown }): string =>
    `At most ${max.toLocaleString('en-US')} ${what}; got ${Array.isArray(issue.input) ? issue.input.length : 'more'}`;

/**
 * A required string of at most `max` characters that is not blank: the length a `.max()` the form kit and the
 * OpenAPI document read, the blank check a refinement. `what` says what to write, for the messages.
 */
export const requiredText = (name: string, max: number, what: string) =>
  z
    .string({ message: `${name} is required: ${what}` })
    .max(max, `${name} is at most ${max.toLocaleString('en-US')} characters`)
    .refine((s) => s.trim().length > 0, { message: `${name} must not be empty: ${what}` });

/** The paging query of every paginated list. */
export const PageQuery = z.object({ first: First, after: After });
export type PageQuery = z.input<typeof PageQuery>;

/**
 * For an object-level refinement that should run even when *other* fields failed (so every failing field
 * is reported at once): true when the value is an object and the fields it reads parsed cleanly.
 */
export function whenFieldsParsed(...fields: string[]) {
  return (payload: { value: unknown; issues: ReadonlyArray<{ path?: ReadonlyArray<PropertyKey> }> }): boolean =>
    typeof payload.value === 'object' &&
    payload.value !== null &&
    !Array.isArray(payload.value) &&
    !payload.issues.some((i) => !i.path?.length || fields.includes(String(i.path[0])));
}
