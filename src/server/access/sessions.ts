/**
 * Console sessions: the valid sessions of a request's cookies, opening one (the cookie, the row with its
 * person and roles), and `GET /console/session`'s answer (who, their roles, and what those allow where).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  hashSecret,
  newSecret,
  type SessionRow,
  type SessionStore,
  type SignInMethod,
} from '../console/sessions-store';
import type { Principal } from '../console/actor';
import { scopeOf, type Policy, type RoleGrant } from '../policy/policy';
import { readCookies, SECURE_SESSION_COOKIE, SESSION_COOKIE, SESSION_ID } from './cookies';
import { landingPage, writePage } from './page';

/** Sessions stored at most (the least recently used are dropped). */
export const MAX_SESSIONS = 10_000;

export interface FoundSession {
  idHash: string;
  row: SessionRow;
}

/** What a new session holds beside its times. */
export interface NewSession {
  method: SignInMethod;
  name: string | null;
  subject?: string | null;
  email?: string | null;
  groups?: string[];
  roles: RoleGrant[];
  /** Ends no later than this (epoch ms), besides the configured maximum age. */
  notAfter?: number;
  /**
   * Opened by a navigation that came from another site (the provider's redirect): answered with a page that
   * moves on to the app by itself, since a browser does not send a SameSite=Strict cookie on the rest of a
   * cross-site redirect chain, but does on a navigation the console's own page starts.
   */
  crossSiteLanding?: boolean;
}

export interface SessionKit {
  cookieName: string;
  cookieAttrs: string;
  sessionsOf(req: IncomingMessage): Promise<FoundSession[]>;
  open(res: ServerResponse, session: NewSession): Promise<void>;
  sendSession(res: ServerResponse, principal: Principal, row?: SessionRow, lastSeen?: number): void;
}

export function principalOfRow(row: SessionRow): Principal {
  return {
    method: row.method,
    subject: row.subject ?? null,
    name: row.name ?? null,
    email: row.email ?? null,
    groups: row.groups ?? [],
    roles: row.roles ?? [],
  };
}

export function createSessionKit(opts: {
  store: SessionStore;
  secure: boolean;
  fingerprint: string;
  idleMs: number;
  maxAgeMs: number;
  now: () => number;
  policy: () => Policy;
  endSessionUrl: () => string | undefined;
}): SessionKit {
  const { store, fingerprint, idleMs, maxAgeMs, now } = opts;
  const cookieName = opts.secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  const cookieAttrs = `Path=/; HttpOnly; SameSite=Strict${opts.secure ? '; Secure' : ''}`;

  /** Every valid session among the request's cookies, each once (a planted invalid cookie hides none). */
  const sessionsOf = async (req: IncomingMessage): Promise<FoundSession[]> => {
    const t = now();
    const found: FoundSession[] = [];
    for (const value of readCookies(req, cookieName)) {
      if (!SESSION_ID.test(value)) continue;
      const idHash = hashSecret(value);
      if (found.some((f) => f.idHash === idHash)) continue;
      const row = await store.get(idHash);
      if (!row) continue;
      if (row.fingerprint !== fingerprint || row.expires_at <= t || row.last_seen_at + idleMs <= t) {
        await store.delete(idHash);
        continue;
      }
      found.push({ idHash, row });
    }
    return found;
  };

  const open = async (res: ServerResponse, s: NewSession) => {
    const t = now();
    await store.purge(t, idleMs, MAX_SESSIONS - 1);
    const id = newSecret();
    const expires = Math.min(t + maxAgeMs, s.notAfter ?? Infinity);
    await store.insert(hashSecret(id), {
      fingerprint,
      method: s.method,
      created_at: t,
      last_seen_at: t,
      expires_at: expires,
      name: s.name,
      subject: s.subject ?? null,
      email: s.email ?? null,
      groups: s.groups,
      roles: s.roles,
    });
    const cookie = `${cookieName}=${id}; ${cookieAttrs}; Max-Age=${Math.max(1, Math.floor((expires - t) / 1000))}`;
    if (s.crossSiteLanding) {
      writePage(res, 200, landingPage(s.name), { 'set-cookie': cookie, refresh: '0; url=/' });
      return;
    }
    res.writeHead(303, { location: '/', 'set-cookie': cookie, 'cache-control': 'no-store' });
    res.end();
  };

  const sendSession = (res: ServerResponse, p: Principal, row?: SessionRow, lastSeen?: number) => {
    const seconds = (ms: number) => Math.floor(ms / 1000);
    const policy = opts.policy();
    const body = JSON.stringify({
      signed_in: true,
      method: p.method,
      name: p.name,
      expires_at: row ? seconds(row.expires_at) : null,
      idle_expires_at: row ? seconds(Math.min(row.expires_at, (lastSeen ?? row.last_seen_at) + idleMs)) : null,
      subject: p.subject,
      email: p.email,
      groups: p.groups,
      roles: p.roles,
      // Per permission: '*' (every organization) or the organizations the roles are limited to.
      permissions: scopeOf(policy, p.roles),
      policy_file: policy.source !== null,
      end_session_url: p.method === 'oidc' ? (opts.endSessionUrl() ?? null) : null,
    });
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    });
    res.end(body);
  };

  return { cookieName, cookieAttrs, sessionsOf, open, sendSession };
}
