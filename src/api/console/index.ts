/**
 * The console's own operation table (`/console/*`), the twin of the API's: the console server mounts these
 * rows with the same validation and problem bodies, and the browser calls them by id through the same client.
 */
import type { ConsoleOperationDef } from './define';
import { consoleDoctorOperations } from './doctor';
import { consoleGitPermissionOperations } from './git-permissions';
import { consoleIpAccessListOperations } from './ip-access-list';
import { consoleSettingsHistoryOperations } from './settings-history';
import { consoleSystemOperations } from './system';
import { consoleCapacitySampleOperations } from './capacity-samples';
import { consoleAlertOperations } from './alerts';
import { consoleActivityOperations } from './activity';
import { consoleConfigurationOperations } from './configuration';
import { consolePrincipalConsumptionOperations } from './principal-consumption';

export const consoleOperations = {
  ...consoleSystemOperations,
  ...consoleGitPermissionOperations,
  ...consoleIpAccessListOperations,
  ...consoleDoctorOperations,
  ...consoleCapacitySampleOperations,
  ...consoleSettingsHistoryOperations,
  ...consoleAlertOperations,
  ...consoleActivityOperations,
  ...consoleConfigurationOperations,
  ...consolePrincipalConsumptionOperations,
} as const;

export type ConsoleOperations = typeof consoleOperations;
export type ConsoleOperationId = keyof ConsoleOperations;

export const consoleOperationList: readonly ConsoleOperationDef[] = Object.values(consoleOperations);

export type { ConsoleOperationDef } from './define';
