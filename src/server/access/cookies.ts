/**
 * What the access control reads of a request: its session cookies (bounded), its Bearer token, the client
 * address guesses are counted under; and the cookies that clear a planted session.
 */
import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';

/** Over plain HTTP browsers refuse `__Host-` cookies (they need `Secure`). */
export const SESSION_COOKIE = 'console_session';
export const SECURE_SESSION_COOKIE = '__Host-console_session';
/** Cookies of the session's name looked at per request (a page may plant some). */
const MAX_COOKIES = 8;
export const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
/**
 * The built app's static files (hashed chunks, icon) hold no data and no credential: served without a session,
 * so that a page whose session has ended can still load a code-split chunk, whose first API call then answers
 * 401 and sends the app to the sign-in page (instead of a chunk load error).
 */
export const PUBLIC_ASSET = /^\/(assets\/[A-Za-z0-9._-]+|favicon\.(svg|ico))$/;

const LOOPBACK_V4 = /^127\.\d+\.\d+\.\d+$/;

/**
 * The key failures are counted under: the IPv4 address, or the /64 of an IPv6 address; every loopback address
 * (127.0.0.0/8, ::1) is one client, so a local process cannot rotate through them.
 */
export function addressKey(remote: string | undefined): string {
  if (!remote) return 'unknown';
  // An IPv4 address (the common case) is its own key.
  if (!remote.includes(':')) return LOOPBACK_V4.test(remote) ? 'loopback' : remote;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote);
  if (mapped) return LOOPBACK_V4.test(mapped[1]!) ? 'loopback' : mapped[1]!;
  if (/^(?:0{0,4}:){2,7}0{0,3}1$|^::1$/.test(remote)) return 'loopback';
  if (!isIPv6(remote)) return remote;
  const [head = '', tail = ''] = remote.split('%')[0]!.split('::');
  const h = head ? head.split(':') : [];
  const t = remote.includes('::') && tail ? tail.split(':') : [];
  const groups = remote.includes('::') ? [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t] : h;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toLowerCase().replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export function readCookies(req: IncomingMessage, name: string): string[] {
  const values: string[] = [];
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    values.push(part.slice(eq + 1).trim());
    if (values.length >= MAX_COOKIES) break;
  }
  return values;
}

export function bearerOf(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

/**
 * Clears every cookie of the session's name this request could carry (each prefix of its path, host-only and
 * with the host as domain), so a planted session is gone and the browser signs in afresh.
 */
export function clearingCookies(req: IncomingMessage, pathname: string, cookieName: string, secure: boolean): string[] {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  const paths = ['/'];
  const parts = pathname.split('/').filter(Boolean).slice(0, 6);
  for (let i = 1; i <= parts.length; i++) {
    const p = `/${parts.slice(0, i).join('/')}`;
    paths.push(p, `${p}/`);
  }
  return paths.flatMap((p) => [
    `${cookieName}=; Path=${p}; Max-Age=0${secure ? '; Secure' : ''}`,
    ...(host && !host.startsWith('[') ? [`${cookieName}=; Path=${p}; Domain=${host}; Max-Age=0`] : []),
  ]);
}
