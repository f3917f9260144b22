/**
 * `/console/sign-in` (the page, a link opened, the token form sent) and `/console/sign-out` (ends the session;
 * after single sign-on, the sign-in page then offers the provider's own logout).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SIGN_IN_PATH, type SessionStore } from '../console/sessions-store';
import type { OidcClient } from '../oidc/client';
import { escapeHtml, type SsoOffer } from './page';
import type { SessionKit } from './sessions';
import type { LinkTokenSignIn, SendPage } from './sign-in';

/** Left by a sign-out after single sign-on for a few minutes: the app goes to the sign-in page by itself. */
const SIGNED_OUT_COOKIE = 'console_signed_out';

export function createSignInPages(deps: {
  store: SessionStore;
  sessions: SessionKit;
  sendPage: (...args: [...Parameters<SendPage>, extra?: string]) => void;
  linkToken: LinkTokenSignIn;
  oidcClient: OidcClient | undefined;
  sso: SsoOffer | undefined;
  secure: boolean;
}) {
  const { sessions, sendPage, oidcClient, sso } = deps;

  const handleSignIn = async (req: IncomingMessage, res: ServerResponse, addr: string): Promise<void> => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
      req.resume();
      res.writeHead(405, { allow: 'GET, HEAD, POST', 'cache-control': 'no-store' }).end();
      return;
    }
    const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    if (method !== 'POST' && (method !== 'GET' || !query.has('once'))) {
      if (await sessions.sessionsOf(req).then((all) => all.length === 1)) {
        res.writeHead(303, { location: '/', 'cache-control': 'no-store' }).end();
        return;
      }
      const signedOut =
        query.get('signed_out') !== null ||
        new RegExp(`(?:^|;\\s*)${SIGNED_OUT_COOKIE}=1(?:;|$)`).test(req.headers.cookie ?? '');
      const logout = signedOut ? await oidcClient?.findEndSessionUrl() : undefined;
      // After signing out: the provider's own sign-out is offered (the provider's session may still be open).
      const extra =
        signedOut && logout && sso
          ? `<p>You are signed out of the console. <a href="${escapeHtml(logout)}">Also sign out of ${escapeHtml(sso.providerName)}</a></p>`
          : signedOut
            ? '<p>You are signed out of the console.</p>'
            : '';
      sendPage(res, 200, undefined, {}, undefined, extra);
      return;
    }
    await deps.linkToken.handle(req, res, addr);
  };

  const handleSignOut = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    req.resume();
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'cache-control': 'no-store' }).end();
      return;
    }
    for (const s of await sessions.sessionsOf(req)) await deps.store.delete(s.idHash);
    const marker = `${SIGNED_OUT_COOKIE}=1; Path=${SIGN_IN_PATH}; Max-Age=300; HttpOnly; SameSite=Strict${deps.secure ? '; Secure' : ''}`;
    res.writeHead(303, {
      location: oidcClient ? `${SIGN_IN_PATH}?signed_out=1` : SIGN_IN_PATH,
      'set-cookie': [`${sessions.cookieName}=; ${sessions.cookieAttrs}; Max-Age=0`, ...(oidcClient ? [marker] : [])],
      'cache-control': 'no-store',
    });
    res.end();
  };

  return { handleSignIn, handleSignOut };
}
