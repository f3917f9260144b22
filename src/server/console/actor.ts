/**
 * Who a request comes from, as the access control found out (its sign-in session's person, or how it got in),
 * handed to the console's endpoints so that every change in their history says who made it, and to the policy
 * so that every request is checked against that person's roles. The access control notes it on the Node
 * request; a console handler reads it through Hono's `c.env.incoming`.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { madeByOf, type MadeBy, type MadeByKind } from '../../api/console/session';
import type { RoleGrant } from '../policy/policy';

/** The person (or script) behind a request, with the console roles taken at sign-in. */
export interface Principal {
  /** How the request got in. */
  method: 'oidc' | 'link' | 'token' | 'bearer' | 'off';
  /** The identity provider's subject (`sub`); null without single sign-on. */
  subject: string | null;
  name: string | null;
  email: string | null;
  groups: string[];
  roles: RoleGrant[];
}

const actors = new WeakMap<IncomingMessage, MadeBy>();
const principals = new WeakMap<IncomingMessage, Principal>();

/** Notes who `req` comes from (called by the access control once it let the request in). */
export function noteActor(req: IncomingMessage, kind: MadeByKind, name?: string | null, principal?: Principal): void {
  actors.set(req, madeByOf(kind, name));
  if (principal) principals.set(req, principal);
}

/** Who the request comes from; unknown (both null) when nobody noted it. */
export function actorOfRequest(req: IncomingMessage | undefined): MadeBy {
  return (req && actors.get(req)) ?? { made_by: null, made_by_kind: null };
}

/** The person behind the request and their roles; undefined for a request let in without one (health). */
export function principalOfRequest(req: IncomingMessage | undefined): Principal | undefined {
  return req ? principals.get(req) : undefined;
}

/** Who the request a console handler answers comes from. */
export function actorOf(c: Context): MadeBy {
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return actorOfRequest(env?.incoming);
}
