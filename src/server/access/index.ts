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
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config';
import {
  FREE_FAILURES,
  MAX_TRACKED_ADDRESSES,
  TARGET_ATTEMPTS_PER_HOUR,
  SIGN_IN_PATH,
  type SessionStore,
  type SignInFailureStore,
} from '../console/sessions-store';
import { noteActor } from '../console/actor';
import { createOidcClient, type OidcClient } from '../oidc/client';
import { noPolicy, rolesFor, type Policy } from '../policy/policy';
import { addressKey, bearerOf, clearingCookies, PUBLIC_ASSET } from './cookies';
import { signInPage, writePage, type AccessMode, type FormState } from './page';
import { createSessionKit, principalOfRow } from './sessions';
import { createLinkTokenSignIn, createTurns, LINK_TARGET, TOKEN_TARGET } from './sign-in';
import { createOidcSignIn, OIDC_CALLBACK_PATH, OIDC_START_PATH } from './oidc';
import { createLinks, tokenChecks } from './links';
import { createSignInPages } from './pages-routes';
import { checkWithAccessControlOff, createBearerCheck, notSignedInAnswer, SESSION_PATH, SIGN_OUT_PATH } from './bearer';

export { FREE_FAILURES, MAX_TRACKED_ADDRESSES, SIGN_IN_PATH, TARGET_ATTEMPTS_PER_HOUR };
export { TOKEN_TARGET, LINK_TARGET, OIDC_START_PATH, OIDC_CALLBACK_PATH, addressKey, type AccessMode };
export { SESSION_COOKIE, SECURE_SESSION_COOKIE } from './cookies';
export { SIGN_OUT_PATH } from './bearer';
export { BEARER_CLIENT, SESSION_PATH, SIGN_IN_REQUIRED_TYPE } from './bearer';

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
  const { tokenMatches, fingerprint } = tokenChecks(opts.config.accessToken);
  const oidcClient: OidcClient | undefined =
    opts.config.oidc && mode !== 'off'
      ? createOidcClient(opts.config.oidc, { now, maxAgeS: Math.floor(maxAgeMs / 1000) })
      : undefined;
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
  const { cookieName, sessionsOf } = sessions;

  const links = createLinks({
    mode,
    store,
    now,
    fingerprint,
    idleMs,
    maxAgeMs,
    sharedStore: opts.sharedStore ?? false,
  });
  const { ready } = links;

  const sendPage = (
    res: ServerResponse,
    status: number,
    message?: string,
    headers: Record<string, string> = {},
    state?: FormState,
    extra?: string,
  ) => writePage(res, status, signInPage(mode, sso, message, state, extra), headers);

  const inTurn = createTurns();
  const linkToken = createLinkTokenSignIn({
    mode: mode === 'off' ? 'link' : mode,
    store,
    limiter,
    sessions,
    inTurn,
    tokenMatches,
    linksStored: links.stored,
    policy,
    now,
    sendPage,
  });
  const oidc = oidcClient
    ? createOidcSignIn({ client: oidcClient, store, sessions, policy, maxAgeMs, now, log })
    : undefined;

  const { handleSignIn, handleSignOut } = createSignInPages({
    store,
    sessions,
    sendPage,
    linkToken,
    oidcClient,
    sso,
    secure: opts.secure,
  });

  const notSignedIn = notSignedInAnswer(mode, sso);
  const checkBearer = createBearerCheck({ inTurn, limiter, tokenMatches, now, policy, sessions });

  return {
    mode,
    ready,
    issueLink: links.issueLink,
    newLink: links.newLink,
    async check(req, res, pathname) {
      if (mode === 'off') return checkWithAccessControlOff(req, res, pathname, sessions);
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
