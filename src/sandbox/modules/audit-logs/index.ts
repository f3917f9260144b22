/**
 * Audit logs in the sandbox: the enterprise and organization lists over the core `audit_logs` table (which every
 * mutation appends to through `ctx.audit`), and a year of seeded history.
 *
 * Ranges are half-open — `time_after` inclusive, `time_before` exclusive — and the sort is the keyset
 * (created_at, audit_log_id) in the requested order, so a cursor stays exact while entries are appended.
 */
import type { AuditLogEntry, AuditLogOrder } from '../../../api/operations/audit-logs';
import { ID_PREFIX } from '../../../api/conventions';
import { paginate } from '../../cursor';
import type { SandboxModule } from '../../context';
import type { Db } from '../../../node/db';
import { seedActors } from '../members/seed';
import { pickAction, pickPrincipals, SEED_ENTRY_COUNT, SEED_SPAN_SECONDS, seedData, seedPrincipals } from './seed-data';

interface AuditRow extends Record<string, unknown> {
  audit_log_id: string;
  created_at: number;
  action: string;
  org_id: string | null;
  service_user_id: string | null;
  service_user_name: string | null;
  user_id: string | null;
  user_email: string | null;
  data: string;
}

function parseData(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The spec says `service_user_id` and `user_id` "may be absent or null": the sandbox sends both forms (chosen
 * by the id's last hex digit, so it is stable per entry) so clients are exercised with each.
 */
export function toAuditLogEntry(r: AuditRow): AuditLogEntry {
  const omitMissing = parseInt(r.audit_log_id.slice(-1), 16) % 2 === 0;
  const entry: AuditLogEntry = {
    audit_log_id: r.audit_log_id,
    org_id: r.org_id,
    created_at: r.created_at,
    action: r.action,
    service_user_name: r.service_user_name ?? '',
    user_email: r.user_email ?? '',
    data: parseData(r.data),
  };
  if (r.service_user_id !== null || !omitMissing) entry.service_user_id = r.service_user_id;
  if (r.user_id !== null || !omitMissing) entry.user_id = r.user_id;
  return entry;
}

interface ListInput {
  org_id?: string;
  first: number;
  after?: string | null;
  time_after?: number;
  time_before?: number;
  order: AuditLogOrder;
  action?: string[];
  service_user_id?: string;
  user_id?: string;
}

export function listAuditLogs(db: Db, q: ListInput) {
  const where: Array<[string, ...(string | number)[]]> = [];
  if (q.org_id !== undefined) where.push(['org_id = ?', q.org_id]);
  if (q.time_after !== undefined) where.push(['created_at >= ?', q.time_after]);
  if (q.time_before !== undefined) where.push(['created_at < ?', q.time_before]);
  if (q.action?.length) where.push([`action IN (${q.action.map(() => '?').join(', ')})`, ...q.action]);
  if (q.service_user_id !== undefined) where.push(['service_user_id = ?', q.service_user_id]);
  if (q.user_id !== undefined) where.push(['user_id = ?', q.user_id]);
  return paginate<AuditRow, AuditLogEntry>(db, {
    // A cursor belongs to one order of one list: handing it to the other order would walk backwards.
    scope: `audit-logs:${q.org_id ?? 'enterprise'}:${q.order}`,
    select: 'SELECT * FROM audit_logs',
    where,
    order: [
      { col: 'created_at', dir: q.order },
      { col: 'audit_log_id', dir: q.order },
    ],
    first: q.first,
    after: q.after,
    // Counted on the first page only: it is what clients show ("of 24,000"), and counting a year of entries on
    // every page would double the cost of walking them.
    withTotal: !q.after,
    map: toAuditLogEntry,
  });
}

export const auditLogsModule: SandboxModule = {
  name: 'audit-logs',
  migrations: [
    {
      id: 'audit-logs-001-principal-indexes',
      sql: `CREATE INDEX audit_logs_service_user_time ON audit_logs (service_user_id, created_at, audit_log_id);
      CREATE INDEX audit_logs_user_time ON audit_logs (user_id, created_at, audit_log_id);`,
    },
  ],
  seed({ db, rng, now, orgIds }) {
    const orgs = orgIds();
    // The actors are members of the enterprise when the members module seeded them (names drawn here either
    // way, so the rest of the history does not depend on it).
    const drawn = seedPrincipals(rng);
    const principals = seedActors(db) ?? drawn;
    const insert = db.prepare(
      `INSERT INTO audit_logs (audit_log_id, created_at, action, org_id, service_user_id, service_user_name, user_id, user_email, data)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const end = now();
    // The caller (createSandbox) runs every seed in one transaction; this loop only binds and steps.
    for (let i = 0; i < SEED_ENTRY_COUNT; i++) {
      // Denser towards the present, as activity grows: about 70 entries in the last hour, 2,000 in the last
      // week, and still a thousand a month at the far end of the year.
      const age = Math.floor(SEED_SPAN_SECONDS * rng.next() ** 1.6);
      const action = pickAction(rng);
      const { serviceUser, user } = pickPrincipals(rng, action, principals);
      // Join events belong to an organization; a few session and secret entries are enterprise-wide.
      const orgId = orgs.length && (action.includes('join') || rng.chance(0.97)) ? rng.pick(orgs) : null;
      insert.run(
        `${ID_PREFIX.auditLog}${rng.hex(16)}`,
        end - age,
        action,
        orgId,
        serviceUser?.service_user_id ?? null,
        serviceUser?.service_user_name ?? null,
        user?.user_id ?? null,
        user?.user_email ?? null,
        JSON.stringify(seedData(rng, action, principals.users)),
      );
    }
  },
  handlers: {
    'auditLogs.list': ({ query }, { db }) => listAuditLogs(db, query),
    'auditLogs.organization.list': ({ params, query }, { db }) =>
      listAuditLogs(db, { ...query, org_id: params.org_id }),
  },
};
