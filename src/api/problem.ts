/** RFC 9457 problem bodies (spec: "Errors"), as every error of the API, the sandbox and the console server answers. */
import { z } from 'zod';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** One field-level validation failure. `loc` is the path to the field, e.g. `['body', 'permissions', 17, 'repo_path']`. */
export const FieldError = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string().optional(),
});
export type FieldError = z.infer<typeof FieldError>;

export const ProblemDetail = z.looseObject({
  status: z.number().int(),
  title: z.string(),
  type: z.string().default('about:blank'),
  detail: z.string().nullish(),
  instance: z.string().nullish(),
  errors: z.array(FieldError).nullish(),
});
export type ProblemDetail = z.infer<typeof ProblemDetail>;

export const STATUS_TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * The type of the console server's 502 for an answer the API gave but the console could not read (not JSON, or
 * not the contract's shape): the API is reachable, so it is neither an outage nor something a retry changes.
 */
export const UNREADABLE_ANSWER_TYPE = 'urn:agent-platform-console:unreadable-upstream-answer';

/**
 * The type of the console server's own 403: its policy (CONSOLE_POLICY_FILE) refused the signed-in person the
 * operation's permission in that organization. The API's own 403 (the credential lacks it) has another type.
 */
export const POLICY_REFUSED_TYPE = 'urn:agent-platform-console:policy-refused';

export function problem(
  status: number,
  detail: string,
  extra: { instance?: string; errors?: FieldError[]; title?: string; [k: string]: unknown } = {},
): ProblemDetail {
  const { title, ...rest } = extra;
  return {
    type: 'about:blank',
    status,
    title: title ?? STATUS_TITLES[status] ?? 'Error',
    detail,
    ...rest,
  };
}

/** The dotted field name of a `loc`, without its `body`/`query`/`path` head: `permissions.17.repo_path`. */
export function fieldPath(loc: FieldError['loc']): string {
  const [head, ...rest] = loc;
  const parts = head === 'body' || head === 'query' || head === 'path' ? rest : loc;
  return parts.map(String).join('.');
}

/** Most field errors one problem lists; the rest are counted in one last entry. */
export const MAX_FIELD_ERRORS = 100;

/** Keeps at most MAX_FIELD_ERRORS errors, and says how many more there were. */
export function capFieldErrors(errors: readonly FieldError[], where: string = 'body'): FieldError[] {
  if (errors.length <= MAX_FIELD_ERRORS) return [...errors];
  const more = errors.length - (MAX_FIELD_ERRORS - 1);
  return [
    ...errors.slice(0, MAX_FIELD_ERRORS - 1),
    { loc: [where], msg: `${more} more errors are not listed; fix the ones above first`, type: 'too_many_errors' },
  ];
}

/** Turns zod issues into problem `errors`, prefixed with where the value came from; at most MAX_FIELD_ERRORS. */
export function issuesToFieldErrors(
  where: 'body' | 'query' | 'path',
  issues: readonly z.core.$ZodIssue[],
): FieldError[] {
  const listed = issues.length <= MAX_FIELD_ERRORS ? issues : issues.slice(0, MAX_FIELD_ERRORS - 1);
  const errors: FieldError[] = listed.map((i) => ({
    loc: [where, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: i.message,
    type: i.code,
  }));
  if (listed.length < issues.length) {
    errors.push({
      loc: [where],
      msg: `${issues.length - listed.length} more errors are not listed; fix the ones above first`,
      type: 'too_many_errors',
    });
  }
  return errors;
}
