/**
 * The shape of one row of the console's own operation table (`/console/*`): the same as an API operation
 * (id, method, path, params, query, body, response), without a permission — the console's endpoints are
 * guarded by its sign-in session, not by the API's roles.
 */
import type { OperationDef } from '../operations/define';

export interface ConsoleOperationDef extends Omit<OperationDef, 'permission' | 'scope' | 'path' | 'paginated'> {
  /** The console path with `{name}` placeholders: `/console/...`. */
  readonly path: `/console/${string}`;
}

/** Keeps literal types of each operation while checking it against `ConsoleOperationDef`. */
export function defineConsoleOperations<const T extends Record<string, ConsoleOperationDef>>(ops: T): T {
  for (const [key, op] of Object.entries(ops)) {
    if (key !== op.id) throw new Error(`console operation key ${key} does not match its id ${op.id}`);
    if (!op.id.startsWith('console.')) throw new Error(`console operation ids start with "console.": ${op.id}`);
  }
  return ops;
}
