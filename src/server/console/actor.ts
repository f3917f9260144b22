/**
 * Who a request comes from, as the access control found out (its sign-in session's name, or how it got in),
 * handed to the console's endpoints so that every change in their history says who made it. The access control
 * notes it on the Node request; a console handler reads it through Hono's `c.env.incoming`.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { madeByOf, type MadeBy, type MadeByKind } from '../../api/console/session';

const actors = new WeakMap<IncomingMessage, MadeBy>();

/** Notes who `req` comes from (called by the access control once it let the request in). */
export function noteActor(req: IncomingMessage, kind: MadeByKind, name?: string | null): void {
  actors.set(req, madeByOf(kind, name));
}

/** Who the request comes from; unknown (both null) when nobody noted it. */
export function actorOfRequest(req: IncomingMessage | undefined): MadeBy {
  return (req && actors.get(req)) ?? { made_by: null, made_by_kind: null };
}

/** Who the request a console handler answers comes from. */
export function actorOf(c: Context): MadeBy {
  const env = c.env as { incoming?: IncomingMessage } | undefined;
  return actorOfRequest(env?.incoming);
}
