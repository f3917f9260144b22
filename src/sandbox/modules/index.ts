/**
 * The sandbox's modules, in seed order. Each area of the API is one module: its migrations, seed, handlers
 * and background simulation.
 */
import type { SandboxModule } from '../context';
import { acuLimitsModule } from './acu-limits';
import { auditLogsModule } from './audit-logs';
import { coreModule } from './core';
import { gitPermissionsModule } from './git-permissions';
import { indexingModule } from './indexing';
import { ipAccessListModule } from './ip-access-list';
import { knowledgeModule } from './knowledge';
import { membersModule } from './members';
import { organizationsModule } from './organizations';
import { orgGroupLimitsModule } from './org-group-limits';
import { orgTagsModule } from './org-tags';
import { sessionsModule } from './sessions';
import { snapshotBuildsModule } from './snapshot-builds';

export const sandboxModules: readonly SandboxModule[] = [
  coreModule,
  organizationsModule,
  // Right after the organizations: principals (and the demo credentials) that other seeds may refer to.
  membersModule,
  sessionsModule,
  gitPermissionsModule,
  knowledgeModule,
  indexingModule,
  snapshotBuildsModule,
  ipAccessListModule,
  acuLimitsModule,
  orgGroupLimitsModule,
  orgTagsModule,
  // Last: its seed fills the year of history around what the other modules seeded.
  auditLogsModule,
];
