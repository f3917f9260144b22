/**
 * The policy step of every `/api` and `/console` request, between sign-in and forwarding: the person's roles
 * against the operation's permission and organization (read from the body when the operation names it there),
 * a role a write grants checked against them too (role-grants.ts), a refused request answered with the console's
 * own problem (403; 503 when the roles a grant needs could not be read), and every write recorded with who made it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendProblem } from '../../node/problem-writer';
import { principalOfRequest, type Principal } from '../console/actor';
import { isWrite, recordRefused, recordWhenAnswered } from '../console/activity/record';
import type { ActivityStore } from '../console/activity/store';
import type { UpstreamClient } from '../console/upstream-client';
import { peekBody, type PeekedBody } from './body';
import { decideOperation, POLICY_REFUSED_TYPE } from './enforce';
import { operationOf, type MatchedOperation } from './operations';
import type { Policy } from './policy';
import { createRoleCatalog, type RoleCatalog } from './role-catalog';
import { checkRoleGrant } from './role-grants';

export interface PolicyGate {
  /** True when the request may go on (a write then being recorded once answered); false when it was refused. */
  admit(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
}

/** A refusal as the gate answers it. */
interface Refusal {
  status: 403 | 503;
  permission: string;
  org: string | null;
  detail: string;
  op: MatchedOperation | undefined;
  extra?: Record<string, unknown>;
}

export function createPolicyGate(deps: {
  policy: () => Policy;
  activity: ActivityStore;
  now: () => number;
  /**
   * The console's upstream client, to read the API's roles when a person grants one (see role-grants.ts). Without
   * it a role grant by anyone but the admin role is refused: it cannot be checked.
   */
  upstream?: Pick<UpstreamClient, 'all'>;
  /** Or the role catalog itself (tests). */
  roles?: RoleCatalog;
  log?: (line: string) => void;
}): PolicyGate {
  const log = deps.log ?? ((line: string) => console.error(line));
  const activityFailed = (err: unknown) =>
    log(`[console] recording console activity failed: ${err instanceof Error ? err.message : 'unknown error'}`);
  const catalog = deps.roles ?? (deps.upstream ? createRoleCatalog(deps.upstream) : undefined);

  /** The role grant a write makes, checked; undefined when it is allowed. */
  const roleGrantRefusal = async (
    res: ServerResponse,
    policy: Policy,
    principal: Principal,
    op: MatchedOperation,
    body: PeekedBody,
  ): Promise<Refusal | undefined> => {
    // The browser going away ends the wait for the roles.
    const gone = new AbortController();
    const onClose = () => gone.abort();
    res.once('close', onClose);
    try {
      const v = await checkRoleGrant(policy, principal, op, body, catalog, gone.signal);
      if (v.allowed) return undefined;
      const extra = v.missing.length ? { missing_permissions: v.missing } : {};
      return { status: v.status, permission: v.permission, org: v.org, detail: v.detail, op, extra };
    } finally {
      res.off('close', onClose);
    }
  };

  /** Answers a refused request with the policy's problem, recording a refused write. */
  const refuse = async (
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    principal: Principal,
    r: Refusal,
  ): Promise<false> => {
    const method = req.method ?? 'GET';
    req.resume();
    if (isWrite(method)) {
      await recordRefused(
        deps.activity,
        { principal, op: r.op, grant: null, path: pathname },
        method,
        deps.now(),
      ).catch(activityFailed);
    }
    sendProblem(res, r.status, r.detail, pathname, r.status === 503 ? { 'retry-after': '5' } : {}, {
      type: POLICY_REFUSED_TYPE,
      title: "Refused by the console's policy",
      permission: r.permission,
      organization: r.org,
      operation_id: r.op?.id ?? null,
      roles: principal.roles.map((g) => g.role),
      ...r.extra,
    });
    return false;
  };

  return {
    async admit(req, res, pathname) {
      const principal = principalOfRequest(req);
      // A request let in without a person (health) and a preflight are not the policy's to judge.
      if (!principal || req.method === 'OPTIONS') return true;
      const method = req.method ?? 'GET';
      const op = operationOf(method, pathname);
      // The body of a write that names its organization or a role it grants there: read (bounded) and left intact.
      const readBody = isWrite(method) && !!op && ((!!op.orgInBody && !op.org) || !!op.roleFields);
      const body: PeekedBody = readBody ? await peekBody(req) : { kind: 'none' };
      const policy = deps.policy();
      const json = body.kind === 'json' ? body.value : undefined;
      const decision = decideOperation(policy, principal, method, pathname, op, json);
      if (!decision.allowed) {
        const { permission, org, detail } = decision;
        return refuse(req, res, pathname, principal, { status: 403, permission, org, detail, op: decision.op });
      }
      const refused =
        decision.op?.roleFields && isWrite(method)
          ? await roleGrantRefusal(res, policy, principal, decision.op, body)
          : undefined;
      if (refused) return refuse(req, res, pathname, principal, refused);
      if (isWrite(method)) {
        const ctx = { principal, op: decision.op, grant: decision.grant?.grant ?? null, path: pathname };
        recordWhenAnswered(deps.activity, req, res, ctx, deps.now, activityFailed);
      }
      return true;
    },
  };
}
