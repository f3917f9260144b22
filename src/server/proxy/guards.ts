/**
 * Guards that keep the credential usable only from the console's own pages: API-path allowlist checked
 * after normalization, Host (DNS rebinding) and Origin / Sec-Fetch-Site (cross-site) checks.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isAttachmentUploadPath } from '../../api/operations/attachments';

export const API_PREFIXES = ['/api/v3/', '/api/v3beta1/'] as const;

/**
 * Maps a browser path `/api/v3/...` to the upstream path `/v3/...`, or answers null when the target is not
 * plainly an API path: no dot segments, no encoded slash, backslash or dot, no double slash, no absolute URL.
 */
export function toUpstreamPath(rawTarget: string): string | null {
  if (!rawTarget.startsWith('/') || rawTarget.startsWith('//')) return null;
  const q = rawTarget.indexOf('?');
  const path = q === -1 ? rawTarget : rawTarget.slice(0, q);
  const query = q === -1 ? '' : rawTarget.slice(q);
  if (!API_PREFIXES.some((p) => path.startsWith(p))) return null;
  if (path.includes('\\') || path.includes('//')) return null;
  // A dot segment, `.` or `..`, anywhere (the path starts with the prefix's slash).
  if (/\/\.\.?(?:\/|$)/.test(path)) return null;
  // `;` starts path parameters some servers strip (`/x;/../y`, `..;`): never forwarded.
  if (!/^[A-Za-z0-9\-._~!$&'()*+,=:@/%]+$/.test(path)) return null;
  // Percent-encodings (rare in a path: the checks below run only when there is one): no encoded slash,
  // backslash, dot or NUL; the rest well formed and decoding to valid UTF-8 (overlong forms like `%c0%ae`
  // and stray bytes are refused). Text without `%` decodes to itself.
  if (path.includes('%') && (/%(2f|5c|2e|00)/i.test(path) || !decodesCleanly(path, true))) return null;
  if (query.includes('%') && !decodesCleanly(query, false)) return null;
  if (/[\s#]/.test(query) || query.length > 8192) return null;
  return path.slice('/api'.length) + query;
}

function decodesCleanly(text: string, noControls: boolean): boolean {
  if (/%(?![0-9a-f]{2})/i.test(text)) return false;
  try {
    const decoded = decodeURIComponent(text);
    // A path holds no control characters (NUL, CR, LF…) once decoded; a query value may (a search text).
    if (!noControls) return true;
    for (let i = 0; i < decoded.length; i++) {
      const code = decoded.charCodeAt(i);
      if (code < 0x20 || code === 0x7f) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** Host names the console answers to: loopback names on the served port, plus configured ones. */
export function allowedHostHeaders(port: number, extra: readonly string[] = []): Set<string> {
  const set = new Set<string>();
  const add = (n: string, configured: boolean) => {
    const name = n.toLowerCase();
    if (name.includes(':') && !name.startsWith('[')) {
      set.add(name); // already host:port
      return;
    }
    set.add(`${name}:${port}`);
    // A configured name also without a port: behind a load balancer the browser reaches it on the default port
    // of its scheme (`https://console.example.com`) whatever port the console itself serves on.
    if (port === 80 || configured) set.add(name);
  };
  for (const n of ['localhost', '127.0.0.1', '[::1]']) add(n, false);
  for (const n of extra) add(n, true);
  return set;
}

export function isAllowedHost(headers: IncomingHttpHeaders, allowed: ReadonlySet<string>): boolean {
  const host = headers.host?.toLowerCase();
  return !!host && allowed.has(host);
}

/**
 * Cross-site check. A request is refused when its Origin is present and is not the console's own origin,
 * or when the browser marks it `Sec-Fetch-Site: cross-site` (or `same-site`: another port or subdomain).
 */
export function crossSiteReason(headers: IncomingHttpHeaders, allowed: ReadonlySet<string>): string | null {
  const site = headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') {
    return `Cross-site requests are refused (Sec-Fetch-Site: ${site}); open the console itself to use its API`;
  }
  const origin = headers.origin;
  if (origin !== undefined) {
    let hostPort: string | null;
    try {
      const u = new URL(origin);
      hostPort = u.protocol === 'http:' || u.protocol === 'https:' ? u.host.toLowerCase() : null;
    } catch {
      hostPort = null;
    }
    if (!hostPort || !allowed.has(hostPort)) {
      return `Requests from origin ${origin.slice(0, 200)} are refused; only the console's own pages may use its API`;
    }
  }
  return null;
}

/** Methods that may carry a body must send JSON: that forces a CORS preflight for any cross-site page. */
export function bodyTypeProblem(method: string, headers: IncomingHttpHeaders): string | null {
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return null;
  const length = headers['content-length'];
  const hasBody = (length !== undefined && length !== '0') || headers['transfer-encoding'] !== undefined;
  if (!hasBody) return null;
  const type = headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return 'Request bodies must be sent as Content-Type: application/json';
  }
  return null;
}

/**
 * The body rule of every `/api` and `/console` request: JSON (see `bodyTypeProblem`), with one exception — a
 * `multipart/form-data` body POSTed to the attachment upload path (`/api/v3/organizations/{org_id}/attachments`,
 * no query). A multipart body is one a foreign page's form could send without a preflight, so besides the
 * cross-site checks every request passes, it must name its source: an `Origin` (which the cross-site check has
 * found to be the console's own; browsers send it on every POST) or `Sec-Fetch-Site: same-origin`, or else an
 * `Authorization` header (a script with the access token; a form cannot set one).
 */
export function bodyRefusal(
  method: string,
  rawTarget: string,
  headers: IncomingHttpHeaders,
): { status: 403 | 415; detail: string } | null {
  const type = headers['content-type'] ?? '';
  if (/^multipart\/form-data\s*;/i.test(type) && method === 'POST') {
    const upstream = toUpstreamPath(rawTarget);
    if (upstream !== null && isAttachmentUploadPath(upstream)) {
      const named =
        headers.origin !== undefined || headers['sec-fetch-site'] === 'same-origin' || !!headers.authorization;
      return named
        ? null
        : { status: 403, detail: 'A multipart upload must come from the console’s own page (Origin) or a script' };
    }
    return {
      status: 415,
      detail: 'Request bodies must be sent as Content-Type: application/json (multipart only to the attachment upload)',
    };
  }
  const problem = bodyTypeProblem(method, headers);
  return problem ? { status: 415, detail: problem } : null;
}

/** A write to a set the console guards, met on the proxy (see guardedSetOf). */
export type GuardedSet = { kind: 'ip-access-list' } | { kind: 'git-permissions'; orgId: string };

/** Where the console changes the IP access list with its lockout check. */
export const GUARDED_IP_ACCESS_LIST = '/console/ip-access-list';

const READS = new Set(['GET', 'HEAD']);
const IP_ACCESS_LIST_PATH = /^\/v3(?:beta1)?\/enterprise\/ip-access-list\/?$/i;
const GIT_PERMISSIONS_PATH =
  /^\/v3(?:beta1)?\/enterprise\/organizations\/([^/]+)\/git-providers\/permissions(?:\/[^/]+)?\/?$/i;

/**
 * Whether a proxied request writes a set the console guards: the IP access list (whose writes the console
 * checks against locking itself out; the proxy refuses them and points to the guarded endpoint) or an
 * organization's git permissions (run under the same per-organization lock as the console's own changes, so
 * neither is lost to the other). Matched on the decoded path, in any case, with or without a trailing slash;
 * reads pass at the cost of one lookup.
 */
export function guardedSetOf(method: string, upstreamPath: string): GuardedSet | null {
  if (READS.has(method)) return null;
  const q = upstreamPath.indexOf('?');
  let path = q === -1 ? upstreamPath : upstreamPath.slice(0, q);
  // toUpstreamPath has checked the encodings: they decode cleanly, and never to a slash.
  if (path.includes('%')) path = decodeURIComponent(path);
  if (IP_ACCESS_LIST_PATH.test(path)) return { kind: 'ip-access-list' };
  const git = GIT_PERMISSIONS_PATH.exec(path);
  return git ? { kind: 'git-permissions', orgId: git[1]! } : null;
}
