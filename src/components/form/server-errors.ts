/**
 * Server errors where the admin acts: a 422 problem's `errors[].loc` land on the form fields they name (via
 * react-hook-form's `setError`); what names no field, and any other failure, goes to the form-level alert.
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { fieldPath } from '@/api/problem';
import { ApiError, isApiError } from '@/lib/api-error';

/**
 * The field that shows an error of a dotted path: the longest field name that is the path or holds it
 * (`tags.3` shows on `tags`, `session_secrets.0.key` on its own input), or null when no field does.
 */
export function fieldFor(path: string, fields: Iterable<string>): string | null {
  let best: string | null = null;
  for (const name of fields) {
    if ((path === name || path.startsWith(`${name}.`)) && (best === null || name.length > best.length)) best = name;
  }
  return best;
}

/**
 * Puts a 422's field errors on the fields that show them. Returns what is left for the form-level alert: null
 * when every error found its field; the error itself when it is not a 422 with field errors; otherwise the
 * same 422 listing only the errors no field shows.
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: Iterable<string> | ((path: string) => string | null),
): unknown {
  if (!isApiError(error) || error.status !== 422 || error.fieldErrors.length === 0) return error;
  const fieldOf = typeof fields === 'function' ? fields : (p: string) => fieldFor(p, fields);
  const unplaced = error.fieldErrors.filter((fe) => {
    const name = fieldOf(fieldPath(fe.loc));
    if (name === null) return true;
    setError(name as Path<T>, { type: 'server', message: fe.msg });
    return false;
  });
  if (unplaced.length === 0) return null;
  return new ApiError(error.status, { ...error.problem, errors: unplaced }, error.retryAfter, error.operationId);
}
