/**
 * The operation table: every operation of the API the console uses. Each area adds its own module here.
 */
import { organizationOperations } from './organizations';
import type { OperationDef } from './define';

export const operations = {
  ...organizationOperations,
} as const;

export type Operations = typeof operations;
export type OperationId = keyof Operations;

export const operationList: readonly OperationDef[] = Object.values(operations);

export function getOperation<I extends OperationId>(id: I): Operations[I] {
  return operations[id];
}

export * from './define';
export * from './organizations';
