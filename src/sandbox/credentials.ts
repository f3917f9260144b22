/**
 * Credentials are store rows: a service user's credential is kept as its sha256, and what it may do is read from
 * its role assignments on every request, so a credential minted through the API works at once, with exactly its
 * role's permissions, and stops (401) when its service user is deleted or its lifetime ends. The two documented
 * demo credentials are seeded service users like any other.
 */
import { PERMISSIONS, READ_PERMISSIONS, type Permission } from '../api/permissions';
import type { Db } from '../node/db';
import type { Principal } from './context';
import { lookupCredential } from './modules/members/store';

export const SANDBOX_CREDENTIALS = {
  admin: 'cog_sandbox_admin',
  viewer: 'cog_sandbox_viewer',
} as const;

export interface DemoServiceUser {
  credential: string;
  service_user_id: string;
  service_user_name: string;
  role_id: string;
  role_name: string;
  permissions: readonly Permission[];
  description: string;
}

/** The documented demo credentials: seeded service users with built-in enterprise roles. */
export const DEMO_SERVICE_USERS: readonly DemoServiceUser[] = [
  {
    credential: SANDBOX_CREDENTIALS.admin,
    service_user_id: 'service-user-sandbox-admin',
    service_user_name: 'Sandbox Admin',
    role_id: 'role-enterprise-admin',
    role_name: 'Enterprise Admin',
    permissions: PERMISSIONS,
    description: 'every permission',
  },
  {
    credential: SANDBOX_CREDENTIALS.viewer,
    service_user_id: 'service-user-sandbox-viewer',
    service_user_name: 'Sandbox Viewer',
    role_id: 'role-enterprise-viewer',
    role_name: 'Enterprise Viewer',
    permissions: READ_PERMISSIONS,
    description: `read-only: ${READ_PERMISSIONS.join(', ')}`,
  },
];

export function describeCredentials(): Array<{ credential: string; role: string; description: string }> {
  return DEMO_SERVICE_USERS.map((d) => ({ credential: d.credential, role: d.role_name, description: d.description }));
}

export type AuthResult = { ok: true; principal: Principal } | { ok: false; detail: string };

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/** Reads `Authorization: Bearer cog_…` against the store; explains exactly what is wrong when it cannot be used. */
export function authenticate(db: Db, header: string | undefined, now: number): AuthResult {
  if (!header) {
    return { ok: false, detail: 'Missing credential: send the header Authorization: Bearer cog_…' };
  }
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) {
    return { ok: false, detail: 'Malformed Authorization header: expected "Bearer cog_…"' };
  }
  const token = m[1]!;
  if (!token.startsWith('cog_')) {
    return { ok: false, detail: 'Not a service-user credential: credentials start with "cog_"' };
  }
  const found = lookupCredential(db, token, now);
  if (!found.ok) {
    switch (found.reason) {
      case 'deleted':
        return { ok: false, detail: `Revoked credential: its service user was deleted at ${iso(found.at!)}` };
      case 'expired':
        return { ok: false, detail: `Expired credential: its lifetime ended at ${iso(found.at!)}` };
      default:
        return { ok: false, detail: 'Unknown, revoked or expired credential' };
    }
  }
  const g = found.grants;
  const all = new Set<Permission>(g.enterprise);
  for (const perms of g.orgs.values()) for (const p of perms) all.add(p);
  return {
    ok: true,
    principal: {
      credential: token,
      principal_type: 'service_user',
      service_user_id: g.service_user_id,
      service_user_name: g.service_user_name,
      org_id: g.org_id,
      permissions: all,
      enterprisePermissions: g.enterprise,
      orgPermissions: g.orgs,
      role_assignments: g.role_assignments,
    },
  };
}
