/**
 * The policy step of every `/api` and `/console` request, between sign-in and forwarding: the person's roles
 * against the operation's permission and organization (read from the body when the operation names it there),
 * a refused request answered with the console's own 403 problem, and every write recorded with who made it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendProblem } from '../../node/problem-writer';
import { principalOfRequest } from '../console/actor';
import { isWrite, recordRefused, recordWhenAnswered } from '../console/activity/record';
import type { ActivityStore } from '../console/activity/store';
import { peekJsonBody } from './body';
import { decideOperation, POLICY_REFUSED_TYPE } from './enforce';
import { operationOf } from './operations';
import type { Policy } from './policy';

export interface PolicyGate {
  /** True when the request may go on (a write then being recorded once answered); false when it was refused. */
  admit(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
}

export function createPolicyGate(deps: {
  policy: () => Policy;
  activity: ActivityStore;
  now: () => number;
  log?: (line: string) => void;
}): PolicyGate {
  const log = deps.log ?? ((line: string) => console.error(line));
  const activityFailed = (err: unknown) =>
    log(`[console] recording console activity failed: ${err instanceof Error ? err.message : 'unknown error'}`);

  return {
    async admit(req, res, pathname) {
      const principal = principalOfRequest(req);
      // A request let in without a person (health) and a preflight are not the policy's to judge.
      if (!principal || req.method === 'OPTIONS') return true;
      const method = req.method ?? 'GET';
      const op = operationOf(method, pathname);
      // The organization of an operation that names it in its body: the body is read (bounded) and left intact.
      const body = op?.orgInBody && !op.org && isWrite(method) ? await peekJsonBody(req) : undefined;
      const decision = decideOperation(deps.policy(), principal, method, pathname, op, body);
      if (decision.allowed) {
        if (isWrite(method)) {
          const ctx = { principal, op: decision.op, grant: decision.grant?.grant ?? null, path: pathname };
          recordWhenAnswered(deps.activity, req, res, ctx, deps.now, activityFailed);
        }
        return true;
      }
      req.resume();
      if (isWrite(method)) {
        await recordRefused(
          deps.activity,
          { principal, op: decision.op, grant: null, path: pathname },
          method,
          deps.now(),
        ).catch(activityFailed);
      }
      sendProblem(
        res,
        403,
        decision.detail,
        pathname,
        {},
        {
          type: POLICY_REFUSED_TYPE,
          title: "Refused by the console's policy",
          permission: decision.permission,
          organization: decision.org,
          operation_id: decision.op?.id ?? null,
          roles: principal.roles.map((r) => r.role),
        },
      );
      return false;
    },
  };
}
