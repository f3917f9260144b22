/**
 * The shape of one row of the console's own operation table (`/console/*`): the same as an API operation
 * (id, method, path, params, query, body, response), with what the console's policy requires of the person
 * instead of the API's permission and scope — the console's endpoints act through its one credential, so each
 * names the API permission of what it stands for, and the policy (src/server/policy) reads it from here.
 */
import type { OperationDef } from '../operations/define';
import type { Permission } from '../permissions';

/**
 * What a console operation needs of the person's console roles: an API permission (what the API operation it
 * stands for needs), `null` (any console role: it changes nothing upstream), or `'admin'` (only a role holding
 * every permission everywhere: a change the console's credential could otherwise use to give more than the
 * person's roles hold, or a newer endpoint no permission was chosen for).
 */
export type ConsolePermission = Permission | null | 'admin';

/**
 * Where a console operation names the organization it acts in, when that is not an `{org_id}` path parameter:
 * another path parameter, or a top-level field of its JSON body. The value `enterprise` (or none) means
 * enterprise-wide.
 */
export type ConsoleOrganizationSource = { readonly param: string } | { readonly body: string };

export interface ConsoleOperationDef extends Omit<OperationDef, 'permission' | 'scope' | 'path' | 'paginated'> {
  /** The console path with `{name}` placeholders: `/console/...`. */
  readonly path: `/console/${string}`;
  /**
   * What the console's policy requires (see ConsolePermission). Absent: a read (GET) needs any console role
   * and a write the admin role — deny by default for an endpoint added without one.
   */
  readonly permission?: ConsolePermission;
  /** Where the organization is named when not in `{org_id}` (see ConsoleOrganizationSource). */
  readonly organization?: ConsoleOrganizationSource;
}

/** What the policy requires for `op`: its own `permission`, or the default for its method. */
export function consolePermissionOf(op: Pick<ConsoleOperationDef, 'permission' | 'method'>): ConsolePermission {
  if (op.permission !== undefined) return op.permission;
  return op.method === 'GET' ? null : 'admin';
}

/** Keeps literal types of each operation while checking it against `ConsoleOperationDef`. */
export function defineConsoleOperations<const T extends Record<string, ConsoleOperationDef>>(ops: T): T {
  for (const [key, op] of Object.entries(ops)) {
    if (key !== op.id) throw new Error(`console operation key ${key} does not match its id ${op.id}`);
    if (!op.id.startsWith('console.')) throw new Error(`console operation ids start with "console.": ${op.id}`);
  }
  return ops;
}
