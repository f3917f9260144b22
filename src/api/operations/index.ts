/**
 * The operation table: every operation of the API the console uses. Each area adds its own module here.
 */
import { auditLogOperations } from './audit-logs';
import type { OperationDef } from './define';
import { gitPermissionOperations } from './git-permissions';
import { indexingOperations } from './indexing';
import { knowledgeOperations } from './knowledge';
import { organizationOperations } from './organizations';
import { sessionOperations } from './sessions';
import { snapshotBuildOperations } from './snapshot-builds';

export const operations = {
  ...organizationOperations,
  ...sessionOperations,
  ...gitPermissionOperations,
  ...knowledgeOperations,
  ...indexingOperations,
  ...snapshotBuildOperations,
  ...auditLogOperations,
} as const;

export type Operations = typeof operations;
export type OperationId = keyof Operations;

export const operationList: readonly OperationDef[] = Object.values(operations);

export function getOperation<I extends OperationId>(id: I): Operations[I] {
  return operations[id];
}

export * from './define';
export * from './organizations';
