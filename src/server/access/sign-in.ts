/**
 * Signing in with a one-time link or the access token (`/console/sign-in`), with the guess limits: per client
 * address with exponential backoff, and per credential target from every address together, counted in the
 * store before an attempt is evaluated, one attempt per address at a time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkSignInName, SIGN_IN_NAME_MAX } from '../../api/console/session';
import { sendProblem } from '../../node/problem-writer';
import { SIGN_IN_PATH, TARGET_PREFIX, type SessionStore, type SignInFailureStore } from '../console/sessions-store';
import { rolesFor, type Policy } from '../policy/policy';
import type { FormState } from './page';
import type { SessionKit } from './sessions';

/** The credential targets guesses are counted on, from every address together. */
export const TOKEN_TARGET = `${TARGET_PREFIX}access-token`;
export const LINK_TARGET = `${TARGET_PREFIX}sign-in-link`;
/** Attempts of one address waiting for their turn; more answer 429 at once. */
const MAX_WAITING_ATTEMPTS = 1024;
const MAX_FORM_BYTES = 4096;

export const tooManyMessage = (waitMs: number) =>
  `Too many failed sign-in attempts. Try again in ${Math.ceil(waitMs / 1000)} seconds.`;
export const retryAfter = (waitMs: number) => ({ 'retry-after': String(Math.ceil(waitMs / 1000)) });

export type SendPage = (
  res: ServerResponse,
  status: number,
  message?: string,
  headers?: Record<string, string>,
  state?: FormState,
) => void;

/**
 * One address's attempts, one at a time: each is checked and counted before the next is (so parallel guesses
 * never pass the check together); the rest wait their turn, at most MAX_WAITING_ATTEMPTS of them (more answer
 * 'busy').
 */
export function createTurns() {
  const turns = new Map<string, { queue: Array<() => void> }>();
  return async <T>(key: string, work: () => Promise<T>): Promise<T | 'busy'> => {
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
}

export interface LinkTokenSignIn {
  handle(req: IncomingMessage, res: ServerResponse, addr: string): Promise<void>;
}

export function createLinkTokenSignIn(deps: {
  mode: 'link' | 'token';
  store: SessionStore;
  limiter: SignInFailureStore;
  sessions: SessionKit;
  inTurn: ReturnType<typeof createTurns>;
  tokenMatches: (given: string) => boolean;
  linksStored: () => Promise<unknown>;
  policy: () => Policy;
  now: () => number;
  sendPage: SendPage;
}): LinkTokenSignIn {
  const { store, limiter, sessions, inTurn, now, sendPage } = deps;
  /** An attempt on `target` from `addr`, counted now: 0 to go on (then evaluate it), else the wait. */
  const attempt = async (addr: string, target: string): Promise<number> => {
    const wait = await inTurn(addr, () => limiter.attempt([addr, target], now()));
    return wait === 'busy' ? 1_000 : wait;
  };
  /** Opens the session with the roles the policy gives the token and links; none: refused, nothing signed in. */
  const openWithRoles = async (res: ServerResponse, method: 'link' | 'token', name: string | null) => {
    const roles = rolesFor(deps.policy(), { via: 'token' });
    if (roles.length === 0) {
      sendPage(
        res,
        403,
        'The console’s policy gives the access token and sign-in links no role, so nothing was signed in. Sign in with your organization’s account, or ask for a grant with "token": true in CONSOLE_POLICY_FILE.',
      );
      return;
    }
    await sessions.open(res, { method, name, roles });
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
        { errors: [{ loc: ['body', 'name'], msg: message, type: 'invalid_name' }] },
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

  const readForm = (req: IncomingMessage, res: ServerResponse) =>
    new Promise<string | undefined>((resolve) => {
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

  const handle = async (req: IncomingMessage, res: ServerResponse, addr: string): Promise<void> => {
    const method = req.method ?? 'GET';
    const query = (req.url ?? '').split('?')[1] ?? '';
    // Only a GET consumes a link (a HEAD, say from a link checker, does not).
    const once = method === 'GET' ? new URLSearchParams(query).get('once') : null;
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
      await deps.linksStored();
      const taken = await store.takeLink(once);
      if (taken) {
        await succeeded();
        await openWithRoles(res, 'link', taken.name);
      } else {
        sendPage(
          res,
          401,
          'This sign-in link has already been used or is not valid. Each link works once: use the latest one that npm start printed, or run npm start -- --sign-in-link for a new one.',
        );
      }
      return;
    }
    const body = await readForm(req, res);
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
    if (deps.tokenMatches(given)) {
      await succeeded();
      await openWithRoles(res, 'token', name);
    } else {
      sendPage(res, 401, 'Sign-in failed: the access token was not accepted.', {}, { name: rawName ?? '' });
    }
  };
  return { handle };
}
