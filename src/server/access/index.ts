/**
 * Access control: nobody without a sign-in session uses the console (and so its credential).
 *
 * - With CONSOLE_OIDC_ISSUER, people sign in with the organization's identity provider (OpenID Connect,
 *   `oidc.ts`): their name, email and groups come from the ID token, and the console's policy gives them roles.
 * - `npm start` prints a one-time sign-in link (`/console/sign-in?once=…`); opening it opens a session.
 * - CONSOLE_ACCESS_TOKEN signs in on the sign-in page, or per request as `Authorization: Bearer <token>`
 *   on `/api` and `/console` (scripts; the proxy replaces the header upstream). Links and the token get the
 *   roles the policy's `"token": true` grants give (without a policy file: admin, as before).
 * - Sessions are random 32-byte ids; the console's store keeps their SHA-256 hash with a fingerprint of the
 *   configuration they were opened under (another token revokes them), the person and the roles taken at
 *   sign-in; they expire when idle and in any case after a maximum age. `POST /console/sign-out` ends one.
 * - Sign-in guesses are limited (`sign-in.ts`). A store that cannot be reached makes `check` throw
 *   StoreUnavailable, which the server answers 503. CONSOLE_AUTH=off (loopback only) lets every request through.
 * - Each request let in is noted with who it comes from (`console/actor.ts`): the history of every guarded
 *   change and the console's activity say who made it, and the policy checks their roles.
 */
import { createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config';
import {
  FREE_FAILURES,
  MAX_TRACKED_ADDRESSES,
  TARGET_ATTEMPTS_PER_HOUR,
  newSecret,
  SIGN_IN_PATH,
  type SessionStore,
  type SignInFailureStore,
} from '../console/sessions-store';
import { sendProblem } from '../../node/problem-writer';
import { noteActor, type Principal } from '../console/actor';
import { createOidcClient, type OidcClient } from '../oidc/client';
import { noPolicy, rolesFor, type Policy } from '../policy/policy';
import { addressKey, bearerOf, clearingCookies, PUBLIC_ASSET } from './cookies';
import { escapeHtml, signInPage, writePage, type AccessMode, type FormState } from './page';
import { createSessionKit, MAX_SESSIONS, principalOfRow } from './sessions';
import { createLinkTokenSignIn, createTurns, LINK_TARGET, retryAfter, tooManyMessage, TOKEN_TARGET } from './sign-in';
import { createOidcSignIn, OIDC_CALLBACK_PATH, OIDC_START_PATH } from './oidc';

export { FREE_FAILURES, MAX_TRACKED_ADDRESSES, SIGN_IN_PATH, TARGET_ATTEMPTS_PER_HOUR };
export { TOKEN_TARGET, LINK_TARGET, OIDC_START_PATH, OIDC_CALLBACK_PATH, addressKey, type AccessMode };
export { SESSION_COOKIE, SECURE_SESSION_COOKIE } from './cookies';
/** The client key of every Bearer request: one token, one client, whatever address it comes from. */
export const BEARER_CLIENT = 'b:access-token';
export const SIGN_OUT_PATH = '/console/sign-out';
export const SESSION_PATH = '/console/session';
/** The `type` of the 401 problem that means "sign in to the console" (not an upstream 401). */
export const SIGN_IN_REQUIRED_TYPE = 'urn:agent-platform-console:sign-in-required';

/** `last_seen_at` is written at most this often per session. */
const TOUCH_EVERY_MS = 5_000;

/** `off`: no sign-in. `link`: one-time links only. `token`: links, and CONSOLE_ACCESS_TOKEN. */
export function accessModeOf(config: Pick<Config, 'consoleAuth' | 'accessToken'>): AccessMode {
  if (config.consoleAuth === 'off') return 'off';
  return config.accessToken ? 'token' : 'link';
}

export interface AccessControlOptions {
  config: Pick<Config, 'consoleAuth' | 'accessToken' | 'sessionIdleMinutes' | 'sessionMaxHours'> &
    Partial<Pick<Config, 'oidc'>>;
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
  /** The console's policy in force (reloaded without a restart); without one, today's behaviour. */
  policy?: () => Policy;
  /** Log lines (refused single sign-ons); stderr unless given. */
  log?: (line: string) => void;
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

export function createAccessControl(opts: AccessControlOptions): AccessControl {
  const mode = accessModeOf(opts.config);
  const now = opts.now ?? Date.now;
  const log = opts.log ?? ((line: string) => console.error(line));
  const policy = opts.policy ?? noPolicy;
  const store = opts.store.sessions;
  const limiter = opts.store.signInFailures;
  const idleMs = opts.config.sessionIdleMinutes * 60_000;
  const maxAgeMs = opts.config.sessionMaxHours * 3_600_000;
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
  const oidcClient: OidcClient | undefined =
    opts.config.oidc && mode !== 'off' ? createOidcClient(opts.config.oidc, { now }) : undefined;
  const sso = oidcClient ? { providerName: oidcClient.providerName, startPath: OIDC_START_PATH } : undefined;
  const sessions = createSessionKit({
    store,
    secure: opts.secure,
    fingerprint,
    idleMs,
    maxAgeMs,
    now,
    policy,
    endSessionUrl: () => oidcClient?.endSessionUrl(),
  });
  const { cookieName, cookieAttrs, sessionsOf } = sessions;

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
    extra?: string,
  ) => writePage(res, status, signInPage(mode, sso, message, state, extra), headers);

  const signInDetail =
    mode === 'token'
      ? `Sign in to the console first (${SIGN_IN_PATH}), or send its access token as a Bearer token`
      : `Sign in to the console first: open the one-time sign-in link that npm start printed (${SIGN_IN_PATH})`;
  const sendSignInRequired = (res: ServerResponse, instance: string) =>
    sendProblem(
      res,
      401,
      sso ? `Sign in to the console first with ${sso.providerName} (${SIGN_IN_PATH})` : signInDetail,
      instance,
      {},
      { type: SIGN_IN_REQUIRED_TYPE, title: 'Sign-in required', sign_in: SIGN_IN_PATH },
    );

  const inTurn = createTurns();
  const linkToken = createLinkTokenSignIn({
    mode: mode === 'off' ? 'link' : mode,
    store,
    limiter,
    sessions,
    inTurn,
    tokenMatches,
    linksStored: () => linksStored,
    policy,
    now,
    sendPage,
  });
  const oidc = oidcClient
    ? createOidcSignIn({ client: oidcClient, store, sessions, policy, maxAgeMs, now, log })
    : undefined;

  const handleSignIn = async (req: IncomingMessage, res: ServerResponse, addr: string): Promise<void> => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      req.resume();
      res.writeHead(405, { allow: 'GET, HEAD, POST', 'cache-control': 'no-store' }).end();
      return;
    }
    const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    if (method !== 'POST' && (method !== 'GET' || !query.has('once'))) {
      if (await sessionsOf(req).then((all) => all.length === 1)) {
        res.writeHead(303, { location: '/', 'cache-control': 'no-store' }).end();
        return;
      }
      // Sign-out leaves a short-lived marker cookie: the app goes to this page by itself after signing out.
      const signedOut =
        query.get('signed_out') ??
        (/(?:^|;\s*)console_signed_out=1(?:;|$)/.test(req.headers.cookie ?? '') ? '1' : null);
      const logout = oidcClient?.endSessionUrl();
      // After signing out: the provider's own sign-out is offered (the provider's session may still be open).
      const extra =
        signedOut !== null && logout && sso
          ? `<p>You are signed out of the console. <a href="${escapeHtml(logout)}">Also sign out of ${escapeHtml(sso.providerName)}</a></p>`
          : signedOut !== null
            ? '<p>You are signed out of the console.</p>'
            : '';
      sendPage(res, 200, undefined, {}, undefined, extra);
      return;
    }
    await linkToken.handle(req, res, addr);
  };

  const handleSignOut = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    req.resume();
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'cache-control': 'no-store' }).end();
      return;
    }
    for (const s of await sessionsOf(req)) await store.delete(s.idHash);
    res.writeHead(303, {
      location: oidcClient ? `${SIGN_IN_PATH}?signed_out=1` : SIGN_IN_PATH,
      'set-cookie': [
        `${cookieName}=; ${cookieAttrs}; Max-Age=0`,
        ...(oidcClient
          ? [
              `console_signed_out=1; Path=${SIGN_IN_PATH}; Max-Age=300; HttpOnly; SameSite=Strict${opts.secure ? '; Secure' : ''}`,
            ]
          : []),
      ],
      'cache-control': 'no-store',
    });
    res.end();
  };

  /** The answer for a request with no usable session: 401 problem for an endpoint, else the sign-in page. */
  const notSignedIn = (req: IncomingMessage, res: ServerResponse, pathname: string, isEndpoint: boolean) => {
    req.resume();
    if (isEndpoint) sendSignInRequired(res, pathname);
    else res.writeHead(303, { location: SIGN_IN_PATH, 'cache-control': 'no-store' }).end();
    return false as const;
  };

  /** A request carrying the access token as Bearer: checked in turn per address, with the guess limits. */
  const checkBearer = async (
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    addr: string,
    bearer: string,
  ): Promise<string | false | undefined> => {
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
    if (outcome !== 'ok') return undefined;
    await limiter.reset(addr);
    const principal: Principal = {
      method: 'bearer',
      subject: null,
      name: null,
      email: null,
      groups: [],
      roles: rolesFor(policy(), { via: 'token' }),
    };
    if (pathname === SESSION_PATH && req.method === 'GET') {
      sessions.sendSession(res, principal);
      return false;
    }
    noteActor(req, 'bearer_token', null, principal);
    // One token, one client for the fair share of the pool, whichever addresses its scripts use.
    return BEARER_CLIENT;
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
        const principal: Principal = {
          method: 'off',
          subject: null,
          name: null,
          email: null,
          groups: [],
          roles: [{ role: 'admin', grant: 'access control off' }],
        };
        if (pathname === SESSION_PATH && req.method === 'GET') {
          sessions.sendSession(res, principal);
          return false;
        }
        noteActor(req, 'access_control_off', null, principal);
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
      if (oidc && pathname === OIDC_START_PATH) {
        await oidc.start(req, res);
        return false;
      }
      if (oidc && pathname === OIDC_CALLBACK_PATH) {
        await oidc.callback(req, res);
        return false;
      }
      if ((req.method === 'GET' || req.method === 'HEAD') && PUBLIC_ASSET.test(pathname)) return `a:${addr}`;
      const isEndpoint =
        pathname === '/api' ||
        pathname.startsWith('/api/') ||
        pathname === '/console' ||
        pathname.startsWith('/console/');

      const all = await sessionsOf(req);
      if (all.length > 1) {
        // Someone planted a session of their own: the request acts as nobody, and every copy is cleared.
        res.setHeader('set-cookie', clearingCookies(req, pathname, cookieName, opts.secure));
        return notSignedIn(req, res, pathname, isEndpoint);
      }
      const session = all[0];
      if (session) {
        const t = now();
        if (t - session.row.last_seen_at >= TOUCH_EVERY_MS) await store.touch(session.idHash, t);
        // Sessions opened before roles were recorded get what links and the token get now.
        const principal = principalOfRow(session.row);
        if (!session.row.roles) principal.roles = rolesFor(policy(), { via: 'token' });
        if (pathname === SESSION_PATH && req.method === 'GET') {
          sessions.sendSession(res, principal, session.row, t);
          return false;
        }
        const { name, method } = session.row;
        noteActor(req, name ? 'person' : method === 'link' ? 'one_time_link' : 'access_token', name, principal);
        return `s:${session.idHash}`;
      }

      const bearer = isEndpoint ? bearerOf(req) : undefined;
      if (bearer !== undefined) {
        const outcome = await checkBearer(req, res, pathname, addr, bearer);
        if (outcome !== undefined) return outcome;
      }
      return notSignedIn(req, res, pathname, isEndpoint);
    },
  };
}
