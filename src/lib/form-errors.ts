/** Puts a 422's field errors onto the form fields they name; what names no field becomes a form-level message. */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { fieldPath } from '@/api/problem';
import { errorMessage, isApiError } from './api-error';

export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  knownFields: readonly string[],
): string | null {
  if (!isApiError(error) || error.status !== 422 || error.fieldErrors.length === 0) return errorMessage(error);
  const unplaced: string[] = [];
  for (const fe of error.fieldErrors) {
    const name = fieldPath(fe.loc);
    const top = name.split('.')[0] ?? '';
    if (name && knownFields.includes(top)) {
      setError(name as Path<T>, { type: 'server', message: fe.msg });
    } else {
      unplaced.push(name ? `${name}: ${fe.msg}` : fe.msg);
    }
  }
  return unplaced.length ? unplaced.join('; ') : null;
}
