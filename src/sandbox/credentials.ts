/** The sandbox's demo credentials and their roles. */
import { PERMISSIONS, READ_PERMISSIONS, type Permission } from '../api/permissions';
import type { Principal } from './context';

export const SANDBOX_CREDENTIALS = {
  admin: 'cog_sandbox_admin',
  viewer: 'cog_sandbox_viewer',
} as const;

interface RoleDef {
  service_user_id: string;
  service_user_name: string;
  role: string;
  permissions: readonly Permission[];
  description: string;
}

const ROLES: Record<string, RoleDef> = {
  [SANDBOX_CREDENTIALS.admin]: {
    service_user_id: 'service-user-sandbox-admin',
    service_user_name: 'Sandbox Admin',
    role: 'Enterprise Admin',
    permissions: PERMISSIONS,
    description: 'every permission',
  },
  [SANDBOX_CREDENTIALS.viewer]: {
    service_user_id: 'service-user-sandbox-viewer',
    service_user_name: 'Sandbox Viewer',
    role: 'Enterprise Viewer',
    permissions: READ_PERMISSIONS,
    description: `read-only: ${READ_PERMISSIONS.join(', ')}`,
  },
};

export function describeCredentials(): Array<{ credential: string; role: string; description: string }> {
  return Object.entries(ROLES).map(([credential, r]) => ({ credential, role: r.role, description: r.description }));
}

export type AuthResult = { ok: true; principal: Principal } | { ok: false; detail: string };

/** Reads `Authorization: Bearer cog_…`; explains exactly what is wrong when it cannot be used. */
export function authenticate(header: string | undefined): AuthResult {
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
  const role = ROLES[token];
  if (!role) return { ok: false, detail: 'Unknown, revoked or expired credential' };
  return {
    ok: true,
    principal: {
      credential: token,
      principal_type: 'service_user',
      service_user_id: role.service_user_id,
      service_user_name: role.service_user_name,
      org_id: null,
      permissions: new Set(role.permissions),
    },
  };
}
