/**
 * Store-wide tables every module uses: sandbox metadata, the id counter and the audit log that every
 * mutation appends to (its list operations live in the audit-logs module).
 */
import type { SandboxModule } from '../../context';

export const coreModule: SandboxModule = {
  name: 'core',
  migrations: [
    {
      id: 'core-001-meta',
      sql: `CREATE TABLE sandbox_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
    },
    {
      id: 'core-002-audit-logs',
      sql: `CREATE TABLE audit_logs (
        audit_log_id TEXT PRIMARY KEY,
        created_at INTEGER NOT NULL,
        action TEXT NOT NULL,
        org_id TEXT,
        service_user_id TEXT,
        service_user_name TEXT,
        user_id TEXT,
        user_email TEXT,
        data TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX audit_logs_time ON audit_logs (created_at, audit_log_id);
      CREATE INDEX audit_logs_action_time ON audit_logs (action, created_at, audit_log_id);
      CREATE INDEX audit_logs_org_time ON audit_logs (org_id, created_at, audit_log_id);`,
    },
  ],
  handlers: {},
};
