// The other half of the cycle: a type-only import of a would not count; this import() does.
import type { a as A } from './a';

export const b = (): Promise<{ a: typeof A }> => import('./a');
