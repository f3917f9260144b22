/** Errors a sandbox handler throws; the dispatcher turns them into problem bodies. */
import type { FieldError } from '../../api/problem';

export class SandboxProblem extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string>; [k: string]: unknown } = {},
  ) {
    super(detail);
  }
}

export function notFound(what: string, id: string): SandboxProblem {
  return new SandboxProblem(404, `${what} ${id} was not found`);
}

export function unprocessable(errors: FieldError[], detail?: string): SandboxProblem {
  return new SandboxProblem(422, detail ?? summarizeFieldErrors(errors), { errors });
}

export function summarizeFieldErrors(errors: readonly FieldError[]): string {
  const first = errors[0];
  if (!first) return 'The request failed validation';
  const where = first.loc.filter((p) => p !== 'body' && p !== 'query' && p !== 'path').join('.');
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `${where ? `${where}: ` : ''}${first.msg}${more}`;
}
