/**
 * Whether a schedule's principals may still act: its creator (a service user) and its run-as user, if any. A
 * schedule runs in their names, so one that is deleted, expired or no longer holds the permissions
 * `SCHEDULE_RUNS_AS` names in the schedule's organization stops it (the runner pauses it with the reason this
 * module words). Reads the principals' store directly: role assignments at the enterprise level hold everywhere,
 * those of an organization there; a user also holds what its IdP groups are assigned.
 */
import { SCHEDULE_RUNS_AS } from '../../../api/operations/schedules';
import { ID_PREFIX } from '../../../api/conventions';
import type { Db } from '../../../node/db';
import { ENTERPRISE_LEVEL } from '../members/store';

const iso = (s: number) => new Date(s * 1000).toISOString();

type Kind = 'user' | 'service_user';

/** The kind of principal an id names: service users by their prefix, anything else is a user id. */
export const kindOf = (id: string): Kind => (id.startsWith(ID_PREFIX.serviceUser) ? 'service_user' : 'user');

interface Found {
  label: string;
  /** Why it cannot act at all (deleted, expired, unknown); null when it exists and is live. */
  gone: string | null;
}

function find(db: Db, kind: Kind, id: string, now: number): Found {
  if (kind === 'service_user') {
    const row = db
      .prepare('SELECT name, deleted_at, expires_at FROM service_users WHERE service_user_id = ?')
      .get(id) as { name: string; deleted_at: number | null; expires_at: number | null } | undefined;
    const label = row ? `service user ${row.name} (${id})` : `service user ${id}`;
    if (!row) return { label, gone: 'does not exist' };
    if (row.deleted_at !== null) return { label, gone: `was deleted on ${iso(row.deleted_at)}` };
    if (row.expires_at !== null && row.expires_at <= now) return { label, gone: `expired on ${iso(row.expires_at)}` };
    return { label, gone: null };
  }
  const row = db.prepare('SELECT email FROM users WHERE user_id = ?').get(id) as { email: string } | undefined;
  return row ? { label: `user ${row.email} (${id})`, gone: null } : { label: `user ${id}`, gone: 'does not exist' };
}

/** Every permission `id` holds in `orgId`: its own assignments and (a user's) its IdP groups', at either level. */
export function permissionsIn(db: Db, kind: Kind, id: string, orgId: string): Set<string> {
  const rows = db
    .prepare(
      `SELECT r.permissions FROM role_assignments a JOIN roles r ON r.role_id = a.role_id
       WHERE a.org_id IN (?, ?) AND (
         (a.principal_type = ? AND a.principal_id = ?)
         OR (? = 'user' AND a.principal_type = 'idp_group'
             AND a.principal_id IN (SELECT idp_group_name FROM idp_group_members WHERE user_id = ?)))`,
    )
    .all(ENTERPRISE_LEVEL, orgId, kind, id, kind, id) as Array<{ permissions: string }>;
  return new Set(rows.flatMap((r) => JSON.parse(r.permissions) as string[]));
}

/**
 * Why `id` cannot act for a schedule of `orgId` as `role` (its creator or its run-as principal), as a clause
 * ("service user Nightly bot (service-user-…) was deleted on …"); null when it can.
 */
export function standingProblem(
  db: Db,
  id: string,
  orgId: string,
  role: keyof typeof SCHEDULE_RUNS_AS,
  now: number,
): string | null {
  const kind = kindOf(id);
  const found = find(db, kind, id, now);
  if (found.gone) return `${found.label} ${found.gone}`;
  const held = permissionsIn(db, kind, id, orgId);
  const missing = SCHEDULE_RUNS_AS[role].filter((p) => !held.has(p));
  return missing.length === 0 ? null : `${found.label} does not hold ${missing.join(' or ')} in organization ${orgId}`;
}

/** Why the schedule may not run, for its `paused_reason`; null when its creator and run-as principal stand. */
export function scheduleRevocation(
  db: Db,
  s: { org_id: string; created_by: string; run_as_user_id: string | null; create_as_user_id: string | null },
  now: number,
): string | null {
  const creator = standingProblem(db, s.created_by, s.org_id, 'creator', now);
  if (creator) return `Paused: its creator, ${creator}. Nothing runs in a revoked name.`;
  const runAsId = s.run_as_user_id ?? s.create_as_user_id;
  const runAs = runAsId ? standingProblem(db, runAsId, s.org_id, 'runAs', now) : null;
  return runAs ? `Paused: the principal it runs as, ${runAs}. Nothing runs in a revoked name.` : null;
}
