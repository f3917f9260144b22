/**
 * The operation table: every operation of the API the console uses. Each area adds its own module here.
 */
import { acuLimitOperations } from './acu-limits';
import { attachmentOperations } from './attachments';
import { auditLogOperations } from './audit-logs';
import { capacityOperations } from './capacity';
import { codeScanOperations } from './code-scans';
import { consumptionOperations } from './consumption';
import type { OperationDef } from './define';
import { gitPermissionOperations } from './git-permissions';
import { guardrailOperations } from './guardrails';
import { idpGroupOperations } from './idp-groups';
import { indexingOperations } from './indexing';
import { ipAccessListOperations } from './ip-access-list';
import { knowledgeOperations } from './knowledge';
import { memberOperations } from './members';
import { metricsOperations } from './metrics';
import { organizationOperations } from './organizations';
import { orgGroupLimitOperations } from './org-group-limits';
import { orgTagOperations } from './org-tags';
import { playbookOperations } from './playbooks';
import { scheduleOperations } from './schedules';
import { searchOperations } from './searches';
import { secretOperations } from './secrets';
import { serviceUserOperations } from './service-users';
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
  ...memberOperations,
  ...serviceUserOperations,
  ...idpGroupOperations,
  ...ipAccessListOperations,
  ...acuLimitOperations,
  ...orgGroupLimitOperations,
  ...orgTagOperations,
  ...playbookOperations,
  ...scheduleOperations,
  ...secretOperations,
  ...attachmentOperations,
  ...guardrailOperations,
  ...codeScanOperations,
  ...consumptionOperations,
  ...metricsOperations,
  ...capacityOperations,
  ...searchOperations,
} as const;

export type Operations = typeof operations;
export type OperationId = keyof Operations;

export const operationList: readonly OperationDef[] = Object.values(operations);

export function getOperation<I extends OperationId>(id: I): Operations[I] {
  return operations[id];
}

export * from './define';
export * from './organizations';
