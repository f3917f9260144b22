/** Audit logs in the sandbox. */
import type { SandboxModule } from '../../context';

export const auditLogsModule: SandboxModule = {
  name: 'audit-logs',
  migrations: [],
  handlers: {},
};
