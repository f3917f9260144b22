/**
 * Requests without a session: a script's `Authorization: Bearer <CONSOLE_ACCESS_TOKEN>` (checked in turn per
 * address, with the guess limits, and given the roles of the policy's `"token": true` grants), and the answer
 * for anyone else (a 401 problem for an endpoint, the sign-in page for a page).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SIGN_IN_REQUIRED_TYPE } from '../../api/console/sign-in';
import { sendProblem } from '../../node/problem-writer';
import { noteActor, type Principal } from '../console/actor';
import { SIGN_IN_PATH, type SignInFailureStore } from '../console/sessions-store';
import { addressKey } from './cookies';
import { rolesFor, type Policy } from '../policy/policy';
import type { AccessMode, SsoOffer } from './page';
import type { SessionKit } from './sessions';
import { retryAfter, tooManyMessage, TOKEN_TARGET, type createTurns } from './sign-in';

/** The client key of every Bearer request: one token, one client, whatever address it comes from. */
export const BEARER_CLIENT = 'b:access-token';
export const SESSION_PATH = '/console/session';
export { SIGN_IN_REQUIRED_TYPE };

/** The answer for a request with no usable session: 401 problem for an endpoint, else the sign-in page. */
export function notSignedInAnswer(mode: AccessMode, sso: SsoOffer | undefined) {
  const detail = sso
    ? `Sign in to the console first with ${sso.providerName} (${SIGN_IN_PATH})`
    : mode === 'token'
      ? `Sign in to the console first (${SIGN_IN_PATH}), or send its access token as a Bearer token`
      : `Sign in to the console first: open the one-time sign-in link that npm start printed (${SIGN_IN_PATH})`;
  return (req: IncomingMessage, res: ServerResponse, pathname: string, isEndpoint: boolean) => {
    req.resume();
    if (isEndpoint) {
      sendProblem(
        res,
        401,
        detail,
        pathname,
        {},
        { type: SIGN_IN_REQUIRED_TYPE, title: 'Sign-in required', sign_in: SIGN_IN_PATH },
      );
    } else res.writeHead(303, { location: SIGN_IN_PATH, 'cache-control': 'no-store' }).end();
    return false as const;
  };
}

/**
 * A request carrying the access token as Bearer: the client key when it may go on, false when answered (a
 * wait, or its session), undefined when the token is not the console's (then it is not signed in).
 */
export function createBearerCheck(deps: {
  inTurn: ReturnType<typeof createTurns>;
  limiter: SignInFailureStore;
  tokenMatches: (given: string) => boolean;
  now: () => number;
  policy: () => Policy;
  sessions: SessionKit;
}) {
  const { inTurn, limiter, now } = deps;
  return async (
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    addr: string,
    bearer: string,
  ): Promise<string | false | undefined> => {
    const outcome = await inTurn(addr, async () => {
      const wait = await limiter.waitMs([addr, TOKEN_TARGET], now());
      if (wait > 0) return wait;
      if (deps.tokenMatches(bearer)) return 'ok' as const;
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
      roles: rolesFor(deps.policy(), { via: 'token' }),
    };
    if (pathname === SESSION_PATH && req.method === 'GET') {
      deps.sessions.sendSession(res, principal);
      return false;
    }
    noteActor(req, 'bearer_token', null, principal);
    // One token, one client for the fair share of the pool, whichever addresses its scripts use.
    return BEARER_CLIENT;
  };
}

export const SIGN_OUT_PATH = '/console/sign-out';

/** CONSOLE_AUTH=off (loopback only): everyone is let in as admin; there is nothing to sign in or out of. */
export function checkWithAccessControlOff(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  sessions: SessionKit,
): string | false {
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
