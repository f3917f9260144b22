/**
 * Access control: nobody without a sign-in session uses the console (and so its credential).
 *
 * - `npm start` prints a one-time sign-in link (`/console/sign-in?once=…`); opening it opens a session.
 * - CONSOLE_ACCESS_TOKEN signs in on the sign-in page, or per request as `Authorization: Bearer <token>`
 *   on `/api` and `/console` (scripts; the proxy replaces the header upstream).
 * - Sessions are random 32-byte ids; the console's store (console.db, or PostgreSQL shared by every replica)
 *   keeps their SHA-256 hash with a fingerprint of the configuration they were opened under (another token
 *   revokes them), and they expire when idle and in any case after a maximum age. `POST /console/sign-out`
 *   ends one.
 * - Sign-in guesses are limited per client address (loopback is one client) with exponential backoff, and per
 *   credential target (the access token, the one-time links) with a budget per hour from all addresses
 *   together, counted in the store (so across replicas). An attempt is counted before it is evaluated (before
 *   its body is read), and one address's attempts are counted one at a time (the others queue), so parallel
 *   guesses cannot pass the check together. Failure messages say nothing about the token.
 * - A store that cannot be reached makes `check` throw StoreUnavailable, which the server answers 503.
 * - CONSOLE_AUTH=off (loopback only, enforced by the configuration) lets every request through.
 * - A session may carry the name of the person who opened it (typed on the sign-in page, or bound to the link
 *   by `--sign-in-link --as`); each request let in is noted with who it comes from (`console/actor.ts`), so the
 *   history of every guarded change says who made it.
 */
import { createHash, createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIPv6 } from 'node:net';
import type { Config } from './config';
import {
  FREE_FAILURES,
  hashSecret,
  MAX_TRACKED_ADDRESSES,
  TARGET_ATTEMPTS_PER_HOUR,
  TARGET_PREFIX,
  newSecret,
  SIGN_IN_PATH,
  type SessionRow,
  type SessionStore,
  type SignInFailureStore,
  type SignInMethod,
} from './console/sessions-store';
import { sendProblem } from '../node/problem-writer';
import { checkSignInName, SIGN_IN_NAME_MAX } from '../api/console/session';
import { noteActor } from './console/actor';
import { SECURITY_HEADERS } from './static';

export { FREE_FAILURES, MAX_TRACKED_ADDRESSES, SIGN_IN_PATH, TARGET_ATTEMPTS_PER_HOUR };
/** The credential targets guesses are counted on, from every address together. */
export const TOKEN_TARGET = `${TARGET_PREFIX}access-token`;
export const LINK_TARGET = `${TARGET_PREFIX}sign-in-link`;
/** The client key of every Bearer request: one token, one client, whatever address it comes from. */
export const BEARER_CLIENT = 'b:access-token';
/** Attempts of one address waiting for their turn; more answer 429 at once. */
const MAX_WAITING_ATTEMPTS = 1024;
export const SIGN_OUT_PATH = '/console/sign-out';
export const SESSION_PATH = '/console/session';
/** The `type` of the 401 problem that means "sign in to the console" (not an upstream 401). */
export const SIGN_IN_REQUIRED_TYPE = 'urn:agent-platform-console:sign-in-required';
/** Over plain HTTP browsers refuse `__Host-` cookies (they need `Secure`). */
export const SESSION_COOKIE = 'console_session';
export const SECURE_SESSION_COOKIE = '__Host-console_session';

/** Sessions stored at most (the least recently used are dropped). */
const MAX_SESSIONS = 10_000;
/** `last_seen_at` is written at most this often per session. */
const TOUCH_EVERY_MS = 5_000;
const MAX_FORM_BYTES = 4096;
/** Cookies of the session's name looked at per request (a page may plant some). */
const MAX_COOKIES = 8;

export type AccessMode = 'off' | 'link' | 'token';

/** `off`: no sign-in. `link`: one-time links only. `token`: links, and CONSOLE_ACCESS_TOKEN. */
export function accessModeOf(config: Pick<Config, 'consoleAuth' | 'accessToken'>): AccessMode {
  if (config.consoleAuth === 'off') return 'off';
  return config.accessToken ? 'token' : 'link';
}

export interface AccessControlOptions {
  config: Pick<Config, 'consoleAuth' | 'accessToken' | 'sessionIdleMinutes' | 'sessionMaxHours'>;
  /** The console's store (console.db, or PostgreSQL): sessions, one-time links, sign-in failures. */
  store: { sessions: SessionStore; signInFailures: SignInFailureStore };
  /**
   * The store is shared by several replicas (PostgreSQL): a start then forgets only links older than the
   * maximum session age, not the ones other replicas just printed.
   */
  sharedStore?: boolean;
  /** Served over HTTPS: the cookie is `__Host-console_session` with `Secure`. */
  secure: boolean;
  /** Clock in epoch milliseconds (tests move it). */
  now?: () => number;
}

export interface AccessControl {
  mode: AccessMode;
  /** Settles when the start's housekeeping (expired sessions, old links) is done. */
  ready: Promise<void>;
  /**
   * The key of the client the request belongs to (its session, or its address when access control is off)
   * when it may go on; false when the response has been written. Rejects with StoreUnavailable when the store
   * cannot be reached (nothing has been written then).
   */
  check(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<string | false>;
  /**
   * A new one-time sign-in link: its path and query (`/console/sign-in?once=…`), at once; it is stored in the
   * background (this replica waits for that before it consumes a link). With `name` (already checked), the
   * session it opens is that person's.
   */
  issueLink(name?: string | null): string;
  /** The same, answered once the link is stored (any replica accepts it then). */
  newLink(name?: string | null): Promise<string>;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font-family:system-ui,sans-serif;background:#f6f7f9;color:#1d2330;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#fff;border:1px solid #dde1e8;border-radius:10px;padding:24px;width:min(90vw,380px)}
h1{font-size:18px;margin:0}p{font-size:14px;line-height:1.45}code{font-size:13px}
label{display:block;font-size:14px;font-weight:600;margin:12px 0 4px}
input{width:100%;box-sizing:border-box;height:36px;border:1px solid #dde1e8;border-radius:6px;padding:0 8px}
button{margin-top:16px;height:36px;width:100%;border:0;border-radius:6px;background:#3b5bdb;color:#fff;font-weight:600;cursor:pointer}
p[role=alert]{color:#c92a2a}
.hint{font-size:13px;color:#5c6473;margin:0 0 4px}
.field-error{font-size:13px;color:#c92a2a;margin:4px 0 0}
input[aria-invalid=true]{border-color:#c92a2a}
@media (prefers-color-scheme:dark){body{background:#161a22;color:#e6e8ee}main{background:#1f2430;border-color:#333a48}input{background:#161a22;color:inherit;border-color:#333a48}p[role=alert],.field-error{color:#ff8787}.hint{color:#aab1bf}input[aria-invalid=true]{border-color:#ff8787}}`;
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;
const PAGE_CSP = `default-src 'none'; style-src ${STYLE_HASH}; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

/** What the token form shows again after a refused sign-in: the name typed, and its error if it was refused. */
interface FormState {
  name?: string;
  nameError?: string;
}

function signInForm(state: FormState): string {
  const invalid = state.nameError !== undefined;
  // The name first: it is what a person fills in; after a refused token, the token field takes the focus.
  const focusName = invalid || !state.name;
  return `<form method="post" action="${SIGN_IN_PATH}">
<label for="name">Your name</label><p class="hint" id="name-hint">1–${SIGN_IN_NAME_MAX} characters. Shown in the history beside each change you make.</p>
<input id="name" name="name" type="text" autocomplete="name" required maxlength="${SIGN_IN_NAME_MAX}" value="${escapeHtml(state.name ?? '')}" aria-describedby="${invalid ? 'name-error name-hint' : 'name-hint'}"${invalid ? ' aria-invalid="true"' : ''}${focusName ? ' autofocus' : ''}>
${invalid ? `<p class="field-error" id="name-error">${escapeHtml(state.nameError!)}</p>` : ''}
<label for="token">Access token</label><input id="token" name="token" type="password" autocomplete="current-password" required${focusName ? '' : ' autofocus'}>
<button type="submit">Sign in</button></form>`;
}

function signInPage(mode: AccessMode, message?: string, state: FormState = {}): string {
  const intro =
    mode === 'token'
      ? 'Enter your name and the console’s access token (<code>CONSOLE_ACCESS_TOKEN</code>), or open the one-time sign-in link that <code>npm start</code> printed.'
      : 'Open the one-time sign-in link that <code>npm start</code> printed in its terminal. For a new one, run <code>npm start -- --sign-in-link --as "Your Name"</code> or restart the console.';
  const form = mode === 'token' ? signInForm(state) : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Agent Platform Console</title><style>${STYLE}</style></head><body><main>
<h1>Agent Platform Console</h1><p>${intro}</p>
${message ? `<p role="alert">${escapeHtml(message)}</p>` : ''}${form}</main></body></html>`;
}

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

function readCookies(req: IncomingMessage, name: string): string[] {
  const values: string[] = [];
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    values.push(part.slice(eq + 1).trim());
    if (values.length >= MAX_COOKIES) break;
  }
  return values;
}

function bearerOf(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
/**
 * The built app's static files (hashed chunks, icon) hold no data and no credential: served without a session,
 * so that a page whose session has ended can still load a code-split chunk, whose first API call then answers
 * 401 and sends the app to the sign-in page (instead of a chunk load error).
 */
const PUBLIC_ASSET = /^\/(assets\/[A-Za-z0-9._-]+|favicon\.(svg|ico))$/;

export function createAccessControl(opts: AccessControlOptions): AccessControl {
  const mode = accessModeOf(opts.config);
  const now = opts.now ?? Date.now;
  const store = opts.store.sessions;
  const limiter = opts.store.signInFailures;
  const idleMs = opts.config.sessionIdleMinutes * 60_000;
  const maxAgeMs = opts.config.sessionMaxHours * 3_600_000;
  const cookieName = opts.secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  const cookieAttrs = `Path=/; HttpOnly; SameSite=Strict${opts.secure ? '; Secure' : ''}`;
  const token = opts.config.accessToken;
  // Compared as HMACs under a per-process key: equal lengths, constant time, whatever is sent.
  const macKey = randomBytes(32);
  const mac = (s: string) => createHmac('sha256', macKey).update(s).digest();
  const tokenMac = token ? mac(token) : undefined;
  const tokenMatches = (given: string) => {
    const g = mac(given);
    // Always compare, so a configuration without a token takes the same time.
    const ok = timingSafeEqual(g, tokenMac ?? mac(newSecret()));
    return ok && tokenMac !== undefined;
  };
  // Sessions remember the configuration they were opened under; a slow hash, so the stored value does not
  // make guessing the token offline cheap.
  const fingerprint = scryptSync(token ?? 'link-only', 'agent-platform-console session fingerprint v1', 32).toString(
    'hex',
  );

  const ready: Promise<void> =
    mode === 'off'
      ? Promise.resolve()
      : (async () => {
          await store.revokeOtherFingerprints(fingerprint);
          await store.purge(now(), idleMs, MAX_SESSIONS);
          // Links printed by earlier starts no longer work. With replicas sharing the store, another replica's
          // fresh link must keep working: there, unused links expire after the maximum session age instead.
          await store.clearLinks(opts.sharedStore ? now() - maxAgeMs : undefined);
        })();
  // Not awaited by anyone yet: a failure here is reported, and the requests that follow answer for the store.
  ready.catch((err: unknown) =>
    console.error(`[console] sign-in housekeeping failed: ${err instanceof Error ? err.message : 'unknown error'}`),
  );
  /** Links being stored: consuming a link waits for them, so a link is never refused for arriving early. */
  let linksStored: Promise<unknown> = ready.catch(() => undefined);
  const addLink = (name?: string | null): { path: string; stored: Promise<void> } => {
    const secret = newSecret();
    const stored = linksStored.then(() => store.addLink(secret, now(), name ?? null));
    linksStored = stored.catch(() => undefined);
    return { path: `${SIGN_IN_PATH}?once=${secret}`, stored };
  };

  const sendPage = (
    res: ServerResponse,
    status: number,
    message?: string,
    headers: Record<string, string> = {},
    state?: FormState,
  ) => {
    const html = signInPage(mode, message, state);
    res.writeHead(status, {
      ...SECURITY_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(html),
      'cache-control': 'no-store',
      'content-security-policy': PAGE_CSP,
      // Not `no-referrer`: with it, browsers send `Origin: null` on the form's POST, which the cross-site
      // guard refuses. `same-origin` sends the real origin to this origin only.
      'referrer-policy': 'same-origin',
      ...headers,
    });
    res.end(html);
  };

  const signInDetail =
    mode === 'token'
      ? `Sign in to the console first (${SIGN_IN_PATH}), or send its access token as a Bearer token`
      : `Sign in to the console first: open the one-time sign-in link that npm start printed (${SIGN_IN_PATH})`;
  const sendSignInRequired = (res: ServerResponse, instance: string) =>
    sendProblem(
      res,
      401,
      signInDetail,
      instance,
      {},
      {
        type: SIGN_IN_REQUIRED_TYPE,
        title: 'Sign-in required',
        sign_in: SIGN_IN_PATH,
      },
    );

  const tooManyMessage = (waitMs: number) =>
    `Too many failed sign-in attempts. Try again in ${Math.ceil(waitMs / 1000)} seconds.`;
  const retryAfter = (waitMs: number) => ({ 'retry-after': String(Math.ceil(waitMs / 1000)) });

  /**
   * One address's attempts, one at a time: each is checked and counted before the next is (so parallel
   * guesses never pass the check together); the rest wait their turn, at most MAX_WAITING_ATTEMPTS of them
   * (more answer 'busy').
   */
  const turns = new Map<string, { queue: Array<() => void> }>();
  const inTurn = async <T>(key: string, work: () => Promise<T>): Promise<T | 'busy'> => {
    let turn = turns.get(key);
    if (!turn) turns.set(key, (turn = { queue: [] }));
    else {
      if (turn.queue.length >= MAX_WAITING_ATTEMPTS) return 'busy';
      const t = turn;
      await new Promise<void>((resolve) => t.queue.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = turn.queue.shift();
      if (next) next();
      else turns.delete(key);
    }
  };
  /** An attempt on `target` from `addr`, counted now: 0 to go on (then evaluate it), else the wait. */
  const attempt = async (addr: string, target: string): Promise<number> => {
    const wait = await inTurn(addr, () => limiter.attempt([addr, target], now()));
    return wait === 'busy' ? 1_000 : wait;
  };

  /** Every valid session among the request's cookies, each once (a planted invalid cookie hides none). */
  const sessionsOf = async (req: IncomingMessage): Promise<Array<{ idHash: string; row: SessionRow }>> => {
    const t = now();
    const found: Array<{ idHash: string; row: SessionRow }> = [];
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
  /**
   * The request's session: its one valid session cookie. Two valid ones mean a page of the same host (another
   * port: cookies do not tell ports apart) planted its own session beside the browser's, under a longer path
   * or another domain attribute so that it comes first or last: neither is trusted then (see ambiguous).
   */
  const sessionOf = async (req: IncomingMessage) => {
    const all = await sessionsOf(req);
    return all.length === 1 ? all[0] : undefined;
  };
  /**
   * Clears every cookie of the session's name this request could carry (each prefix of its path, host-only and
   * with the host as domain), so a planted session is gone and the browser signs in afresh.
   */
  const clearingCookies = (req: IncomingMessage, pathname: string): string[] => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const paths = ['/'];
    const parts = pathname.split('/').filter(Boolean).slice(0, 6);
    for (let i = 1; i <= parts.length; i++) {
      const p = `/${parts.slice(0, i).join('/')}`;
      paths.push(p, `${p}/`);
    }
    return paths.flatMap((p) => [
      `${cookieName}=; Path=${p}; Max-Age=0${opts.secure ? '; Secure' : ''}`,
      ...(host && !host.startsWith('[') ? [`${cookieName}=; Path=${p}; Domain=${host}; Max-Age=0`] : []),
    ]);
  };

  const openSession = async (res: ServerResponse, method: SignInMethod, name: string | null) => {
    const t = now();
    await store.purge(t, idleMs, MAX_SESSIONS - 1);
    const id = newSecret();
    await store.insert(hashSecret(id), {
      fingerprint,
      method,
      created_at: t,
      last_seen_at: t,
      expires_at: t + maxAgeMs,
      name,
    });
    res.writeHead(303, {
      location: '/',
      'set-cookie': `${cookieName}=${id}; ${cookieAttrs}; Max-Age=${Math.floor(maxAgeMs / 1000)}`,
      'cache-control': 'no-store',
    });
    res.end();
  };

  const sendSession = (
    res: ServerResponse,
    method: SignInMethod | 'bearer' | 'off',
    row?: SessionRow,
    lastSeen?: number,
  ) => {
    const seconds = (ms: number) => Math.floor(ms / 1000);
    const body = JSON.stringify({
      signed_in: true,
      method,
      name: row?.name ?? null,
      expires_at: row ? seconds(row.expires_at) : null,
      idle_expires_at: row ? seconds(Math.min(row.expires_at, (lastSeen ?? row.last_seen_at) + idleMs)) : null,
    });
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
    });
    res.end(body);
  };

  const handleSignIn = async (req: IncomingMessage, res: ServerResponse, addr: string): Promise<void> => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      req.resume();
      res.writeHead(405, { allow: 'GET, HEAD, POST', 'cache-control': 'no-store' }).end();
      return;
    }
    // Only a GET consumes a link (a HEAD, say from a link checker, does not).
    const query = (req.url ?? '').split('?')[1] ?? '';
    const once = method === 'GET' ? new URLSearchParams(query).get('once') : null;
    if (method !== 'POST' && once === null) {
      if (await sessionOf(req)) res.writeHead(303, { location: '/', 'cache-control': 'no-store' }).end();
      else sendPage(res, 200);
      return;
    }
    // Counted before anything is evaluated (the link looked up, the body read): a success gives it back.
    const target = once !== null ? LINK_TARGET : TOKEN_TARGET;
    const wait = await attempt(addr, target);
    if (wait > 0) {
      req.resume();
      sendPage(res, 429, tooManyMessage(wait), retryAfter(wait));
      return;
    }
    const succeeded = async () => {
      await limiter.reset(addr);
      await limiter.refund([target]);
    };
    if (once !== null) {
      await linksStored;
      const taken = await store.takeLink(once);
      if (taken) {
        await succeeded();
        await openSession(res, 'link', taken.name);
      } else {
        sendPage(
          res,
          401,
          'This sign-in link has already been used or is not valid. Each link works once; use the latest one `npm start` printed.',
        );
      }
      return;
    }
    const body = await new Promise<string | undefined>((resolve) => {
      let text = '';
      let tooLarge = false;
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => {
        if (tooLarge) return;
        text += chunk;
        if (text.length > MAX_FORM_BYTES) {
          tooLarge = true;
          sendPage(res, 413, 'The sign-in form was too large.', { connection: 'close' });
          resolve(undefined);
        }
      });
      req.on('error', () => {
        res.destroy();
        resolve(undefined);
      });
      req.on('end', () => resolve(tooLarge ? undefined : text));
    });
    if (body === undefined) return;
    const form = new URLSearchParams(body);
    const given = form.get('token') ?? '';
    // The page always sends a name (required there); a script posting the token alone opens a session
    // without one. A name sent is checked before the token, which is then not looked at (no failure counted).
    const rawName = form.get('name');
    let name: string | null = null;
    if (rawName !== null) {
      const checked = checkSignInName(rawName);
      if (!checked.ok) {
        // Not an attempt after all: the token is not looked at.
        await limiter.refund([addr, target]);
        sendNameRefused(req, res, checked.message, rawName);
        return;
      }
      name = checked.value;
    }
    if (tokenMatches(given)) {
      await succeeded();
      await openSession(res, 'token', name);
    } else {
      sendPage(res, 401, 'Sign-in failed: the access token was not accepted.', {}, { name: rawName ?? '' });
    }
  };

  /**
   * 422 for a name the sign-in does not take: an RFC 9457 problem with the error on `body.name` for a client
   * that asks for JSON, else the page again with the error on its name field.
   */
  const sendNameRefused = (req: IncomingMessage, res: ServerResponse, message: string, rawName: string) => {
    const accept = req.headers.accept ?? '';
    if (/json/i.test(accept) && !/text\/html/i.test(accept)) {
      sendProblem(
        res,
        422,
        `Your name: ${message}`,
        SIGN_IN_PATH,
        { 'cache-control': 'no-store' },
        {
          errors: [{ loc: ['body', 'name'], msg: message, type: 'invalid_name' }],
        },
      );
      return;
    }
    sendPage(
      res,
      422,
      'Check your name: nothing was signed in.',
      {},
      {
        name: rawName.slice(0, SIGN_IN_NAME_MAX * 4),
        nameError: message,
      },
    );
  };

  const handleSignOut = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    req.resume();
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'cache-control': 'no-store' }).end();
      return;
    }
    for (const s of await sessionsOf(req)) await store.delete(s.idHash);
    res.writeHead(303, {
      location: SIGN_IN_PATH,
      'set-cookie': `${cookieName}=; ${cookieAttrs}; Max-Age=0`,
      'cache-control': 'no-store',
    });
    res.end();
  };

  return {
    mode,
    ready,
    issueLink(name) {
      const link = addLink(name);
      link.stored.catch((err: unknown) =>
        console.error(
          `[console] storing a sign-in link failed: ${err instanceof Error ? err.message : 'unknown error'}`,
        ),
      );
      return link.path;
    },
    async newLink(name) {
      const link = addLink(name);
      await link.stored;
      return link.path;
    },
    async check(req, res, pathname) {
      if (mode === 'off') {
        if (pathname === SIGN_IN_PATH || pathname === SIGN_OUT_PATH) {
          req.resume();
          res.writeHead(303, { location: '/', 'cache-control': 'no-store' }).end();
          return false;
        }
        if (pathname === SESSION_PATH && req.method === 'GET') {
          sendSession(res, 'off');
          return false;
        }
        noteActor(req, 'access_control_off');
        return `a:${addressKey(req.socket.remoteAddress)}`;
      }
      const addr = addressKey(req.socket.remoteAddress);
      if (pathname === '/console/health') return `a:${addr}`;
      if (pathname === SIGN_IN_PATH) {
        await handleSignIn(req, res, addr);
        return false;
      }
      if (pathname === SIGN_OUT_PATH) {
        await handleSignOut(req, res);
        return false;
      }
      if ((req.method === 'GET' || req.method === 'HEAD') && PUBLIC_ASSET.test(pathname)) return `a:${addr}`;
      const isEndpoint =
        pathname === '/api' ||
        pathname.startsWith('/api/') ||
        pathname === '/console' ||
        pathname.startsWith('/console/');

      const sessions = await sessionsOf(req);
      if (sessions.length > 1) {
        // Someone planted a session of their own: the request acts as nobody, and every copy is cleared.
        req.resume();
        res.setHeader('set-cookie', clearingCookies(req, pathname));
        if (isEndpoint) sendSignInRequired(res, pathname);
        else res.writeHead(303, { location: SIGN_IN_PATH, 'cache-control': 'no-store' }).end();
        return false;
      }
      const session = sessions[0];
      if (session) {
        const t = now();
        if (t - session.row.last_seen_at >= TOUCH_EVERY_MS) await store.touch(session.idHash, t);
        if (pathname === SESSION_PATH && req.method === 'GET') {
          sendSession(res, session.row.method, session.row, t);
          return false;
        }
        const { name, method } = session.row;
        noteActor(req, name ? 'person' : method === 'link' ? 'one_time_link' : 'access_token', name);
        return `s:${session.idHash}`;
      }

      const bearer = isEndpoint ? bearerOf(req) : undefined;
      if (bearer !== undefined) {
        // In turn per address: a wrong token is counted before the next one from there is compared.
        const outcome = await inTurn(addr, async () => {
          const wait = await limiter.waitMs([addr, TOKEN_TARGET], now());
          if (wait > 0) return wait;
          if (tokenMatches(bearer)) return 'ok' as const;
          await limiter.attempt([addr, TOKEN_TARGET], now());
          return 0;
        });
        if (outcome === 'busy' || (typeof outcome === 'number' && outcome > 0)) {
          const wait = outcome === 'busy' ? 1_000 : outcome;
          req.resume();
          sendProblem(res, 429, tooManyMessage(wait), pathname, retryAfter(wait));
          return false;
        }
        if (outcome === 'ok') {
          await limiter.reset(addr);
          if (pathname === SESSION_PATH && req.method === 'GET') {
            sendSession(res, 'bearer');
            return false;
          }
          noteActor(req, 'bearer_token');
          // One token, one client for the fair share of the pool, whichever addresses its scripts use.
          return BEARER_CLIENT;
        }
      }

      req.resume();
      if (isEndpoint) sendSignInRequired(res, pathname);
      else res.writeHead(303, { location: SIGN_IN_PATH, 'cache-control': 'no-store' }).end();
      return false;
    },
  };
}
