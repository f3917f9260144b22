/**
 * The sandbox's modules, in seed order. Each area of the API is one module: its migrations, seed, handlers
 * and background simulation.
 */
import type { SandboxModule } from '../context';
import { acuLimitsModule } from './acu-limits';
import { attachmentsModule } from './attachments';
import { auditLogsModule } from './audit-logs';
import { codeScansModule } from './code-scans';
import { coreModule } from './core';
import { gitPermissionsModule } from './git-permissions';
import { guardrailsModule } from './guardrails';
import { indexingModule } from './indexing';
import { ipAccessListModule } from './ip-access-list';
import { knowledgeModule } from './knowledge';
import { membersModule } from './members';
import { organizationsModule } from './organizations';
import { orgGroupLimitsModule } from './org-group-limits';
import { orgTagsModule } from './org-tags';
import { playbooksModule } from './playbooks';
import { schedulesModule } from './schedules';
import { secretsModule } from './secrets';
import { sessionsModule } from './sessions';
import { snapshotBuildsModule } from './snapshot-builds';
import { usageModule } from './usage';

export const sandboxModules: readonly SandboxModule[] = [
  coreModule,
  organizationsModule,
  // Right after the organizations: principals (and the demo credentials) that other seeds may refer to.
  membersModule,
  sessionsModule,
  // Right after sessions: its migration adds the ACU ledger's triggers before any session is seeded.
  usageModule,
  gitPermissionsModule,
  knowledgeModule,
  indexingModule,
  snapshotBuildsModule,
  ipAccessListModule,
  acuLimitsModule,
  orgGroupLimitsModule,
  orgTagsModule,
  // After sessions (whose playbook ids the playbooks seed resolves) and org tags (the schedules' allowed tags).
  playbooksModule,
  schedulesModule,
  // After members (their creators) and sessions (attached to some of them).
  secretsModule,
  attachmentsModule,
  // After sessions (whose sessions their violations and remediations use) and org tags (the remediation tags).
  guardrailsModule,
  codeScansModule,
  // Last: its seed fills the year of history around what the other modules seeded.
  auditLogsModule,
];
