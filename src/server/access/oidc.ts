/**
 * Single sign-on through OpenID Connect: `/console/oidc/start` sends the browser to the provider with a fresh
 * state, nonce and PKCE challenge (kept in the console's store, so the callback works on any replica);
 * `/console/oidc/callback` takes that login once (a replayed callback finds nothing), lets openid-client check
 * the code and the ID token, and opens a session with the roles the policy grants the person. A refused
 * callback signs nobody in and says what went wrong, with a link to try again.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SessionStore } from '../console/sessions-store';
import { refusalReason, type OidcClient } from '../oidc/client';
import { rolesFor, type Policy } from '../policy/policy';
import { refusedPage, writePage } from './page';
import type { SessionKit } from './sessions';

export const OIDC_START_PATH = '/console/oidc/start';
export const OIDC_CALLBACK_PATH = '/console/oidc/callback';
const MAX_QUERY = 8192;

export interface OidcSignIn {
  start(req: IncomingMessage, res: ServerResponse): Promise<void>;
  callback(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function createOidcSignIn(deps: {
  client: OidcClient;
  store: SessionStore;
  sessions: SessionKit;
  policy: () => Policy;
  maxAgeMs: number;
  now: () => number;
  log: (line: string) => void;
}): OidcSignIn {
  const { client, store, now } = deps;
  const refuse = (res: ServerResponse, status: number, why: string) =>
    writePage(
      res,
      status,
      refusedPage('Sign-in refused', `Signing in with ${client.providerName} did not work: ${why}.`, OIDC_START_PATH),
    );

  return {
    async start(req, res) {
      req.resume();
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET', 'cache-control': 'no-store' }).end();
        return;
      }
      let started;
      try {
        started = await client.start();
      } catch (err) {
        deps.log(`[console] single sign-on: discovery failed: ${err instanceof Error ? err.message : 'unknown error'}`);
        refuse(res, 502, `${client.providerName} could not be reached (its discovery document did not load)`);
        return;
      }
      await store.addOidcLogin(started.state, {
        nonce: started.nonce,
        verifier: started.verifier,
        created_at: now(),
      });
      res.writeHead(303, { location: started.url, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
      res.end();
    },

    async callback(req, res) {
      req.resume();
      if (req.method !== 'GET') {
        res.writeHead(405, { allow: 'GET', 'cache-control': 'no-store' }).end();
        return;
      }
      const query = (req.url ?? '').split('?')[1] ?? '';
      if (query.length > MAX_QUERY) return refuse(res, 400, 'the answer from the provider was too long');
      const params = new URLSearchParams(query);
      const state = params.get('state');
      if (!state) return refuse(res, 400, 'the answer carries no state, so it cannot belong to a sign-in started here');
      // Taken once, whatever follows: a replayed or forged callback finds nothing.
      const login = await store.takeOidcLogin(state, now());
      if (!login) {
        return refuse(
          res,
          400,
          'this sign-in was not started here, was already used, or took longer than 10 minutes (its state is unknown)',
        );
      }
      if (params.get('error')) {
        const described = (params.get('error_description') ?? params.get('error') ?? '').slice(0, 200);
        return refuse(res, 401, `the provider refused: ${described}`);
      }
      let person;
      try {
        person = await client.finish(query, { state, nonce: login.nonce, verifier: login.verifier });
      } catch (err) {
        const why = refusalReason(err);
        deps.log(`[console] single sign-on refused: ${why} (${err instanceof Error ? err.message : 'unknown error'})`);
        return refuse(res, 401, why);
      }
      const roles = rolesFor(deps.policy(), { via: 'oidc', email: person.email, groups: person.groups });
      if (roles.length === 0) {
        const who = person.email ?? person.name ?? person.subject;
        const groups = person.groups.length ? `groups: ${person.groups.join(', ')}` : 'no groups';
        return writePage(
          res,
          403,
          refusedPage(
            'No console role',
            `You signed in at ${client.providerName} as ${who} (${groups}), but the console’s policy grants you no role. Ask an administrator of the console for a grant in its policy file.`,
            OIDC_START_PATH,
          ),
        );
      }
      await deps.sessions.open(res, {
        method: 'oidc',
        name: person.name,
        subject: person.subject,
        email: person.email,
        groups: person.groups,
        roles,
        // No longer than the configured maximum counted from when the person authenticated at the provider.
        notAfter: person.authTime ? person.authTime * 1000 + deps.maxAgeMs : undefined,
        crossSiteLanding: true,
      });
    },
  };
}
