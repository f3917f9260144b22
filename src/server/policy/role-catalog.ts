/**
 * The API's roles as the console's policy needs them to check a role grant: each role's type and permissions,
 * read through the console's own upstream client (`GET /v3/enterprise/roles`, every page), kept for a minute so
 * that a burst of grants costs one read, and bounded in time and size. A role the list does not hold triggers
 * one fresh read (a role created a moment ago), at most every few seconds whatever the ids asked for.
 */
import { Role, type RoleType } from '../../api/operations/members';
import type { UpstreamClient } from '../console/upstream-client';

/** A role as the policy checks it; `permissions` null when the API does not publish them (the vendor's shape). */
export interface CatalogRole {
  id: string;
  name: string;
  type: RoleType;
  permissions: readonly string[] | null;
}

/** The roles could not be read: the grant cannot be checked (the policy refuses it, deny by default). */
export class RoleCatalogUnavailable extends Error {}

export interface RoleCatalog {
  /** The role, or null when the API does not know it. Throws RoleCatalogUnavailable when the roles cannot be read. */
  find(roleId: string, signal?: AbortSignal): Promise<CatalogRole | null>;
}

export interface RoleCatalogOptions {
  /** How long a read list is used (default 60 s). */
  ttlMs?: number;
  /** The longest a read may take (default 10 s). */
  timeoutMs?: number;
  /** The least time between two reads caused by an id the list does not hold (default 5 s). */
  missRefreshMs?: number;
  /** Most roles read (an enterprise has dozens). */
  maxRoles?: number;
  now?: () => number;
}

const DEFAULTS = { ttlMs: 60_000, timeoutMs: 10_000, missRefreshMs: 5_000, maxRoles: 5_000 };

export function createRoleCatalog(upstream: Pick<UpstreamClient, 'all'>, opts: RoleCatalogOptions = {}): RoleCatalog {
  const { ttlMs, timeoutMs, missRefreshMs, maxRoles } = { ...DEFAULTS, ...opts };
  const now = opts.now ?? Date.now;
  let cached: { at: number; roles: Map<string, CatalogRole> } | null = null;
  let inFlight: Promise<Map<string, CatalogRole>> | null = null;

  const read = async (): Promise<Map<string, CatalogRole>> => {
    let items: unknown[];
    try {
      items = await upstream.all('roles.list', { maxItems: maxRoles, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      const why = err instanceof Error && err.message ? err.message : 'no answer';
      throw new RoleCatalogUnavailable(`the API's roles (GET /v3/enterprise/roles) could not be read: ${why}`);
    }
    const roles = new Map<string, CatalogRole>();
    for (const item of items) {
      const parsed = Role.safeParse(item);
      // A role the console cannot read is left out: a grant of it is then refused as unknown.
      if (!parsed.success) continue;
      const r = parsed.data;
      roles.set(r.role_id, { id: r.role_id, name: r.role_name, type: r.role_type, permissions: r.permissions ?? null });
    }
    cached = { at: now(), roles };
    return roles;
  };

  /** One read at a time: requests arriving meanwhile share it. */
  const refresh = () => {
    inFlight ??= read().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  const untilAborted = <T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> => {
    if (!signal) return p;
    return new Promise<T>((resolve, reject) => {
      if (signal.aborted)
        return reject(new RoleCatalogUnavailable('the request was closed before the roles were read'));
      const onAbort = () => reject(new RoleCatalogUnavailable('the request was closed before the roles were read'));
      signal.addEventListener('abort', onAbort, { once: true });
      p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  };

  return {
    async find(roleId, signal) {
      const fresh = cached && now() - cached.at < ttlMs ? cached : null;
      const roles = fresh ? fresh.roles : await untilAborted(refresh(), signal);
      const found = roles.get(roleId);
      if (found) return found;
      // Not there: read again once (a role created since), unless the list was read moments ago.
      if (cached && now() - cached.at < missRefreshMs) return null;
      return (await untilAborted(refresh(), signal)).get(roleId) ?? null;
    },
  };
}
