/**
 * The doctor's identity section: `GET /v3/self` when the upstream has it (who the credential signs in as), the
 * `cog_` form of the credential, and a 401 explained in plain words (missing, malformed, unknown, expired, revoked,
 * refused by the IP access list).
 */
import type { DoctorReport, UnauthorizedReason } from '../../../api/console/doctor';
import { plural, problemDetail, verdict, type CredentialForm, type DoctorRun, type OperationCaller } from './run';

export type IdentitySection = DoctorReport['identity'];

/** Why a 401: from the problem body's `reason` and detail, in the words of the sandbox and of real services. */
export function explainUnauthorized(
  text: string,
  credentialForm: CredentialForm,
): { reason: UnauthorizedReason; explanation: string; detail: string | null } {
  const { detail, body } = problemDetail(text);
  const d = (detail ?? '').toLowerCase();
  const reasonField = typeof body?.reason === 'string' ? body.reason.toLowerCase() : '';
  const r = (reason: UnauthorizedReason, explanation: string) => ({ reason, explanation, detail });
  if (credentialForm === 'missing' || d.startsWith('missing') || reasonField === 'missing') {
    return r('missing', 'No credential was sent: set AGENT_PLATFORM_API_KEY to a service-user credential (cog_…).');
  }
  if (reasonField === 'ip_not_allowed' || /ip access list|ip address|not allowed from|ip allow/.test(d)) {
    return r(
      'ip_not_allowed',
      "The enterprise's IP access list refuses this machine's address: add it to the list (Enterprise settings → IP access list) or run the console from an allowed address.",
    );
  }
  if (d.startsWith('malformed')) return r('malformed', 'The Authorization header was malformed.');
  if (credentialForm === 'other' || d.includes('start with "cog_"') || d.includes('not a service-user credential')) {
    return r(
      'not_cog',
      'The credential is not a service-user credential: those start with cog_. Legacy v1/v2 keys do not work with v3.',
    );
  }
  if (d.startsWith('expired') || reasonField === 'expired' || (/\bexpired?\b/.test(d) && !d.includes('or expired'))) {
    return r('expired', 'The credential has expired: create a new one for the service user and set it.');
  }
  if (
    d.startsWith('revoked') ||
    reasonField === 'revoked' ||
    (/revoked|deleted/.test(d) && !d.includes('revoked or'))
  ) {
    return r('revoked', 'The credential was revoked (its service user was deleted or the credential withdrawn).');
  }
  if (/unknown|invalid|not recogni[sz]ed|revoked or expired/.test(d) || reasonField === 'unknown') {
    return r(
      'unknown',
      'The upstream does not know this credential (mistyped, revoked or expired): check AGENT_PLATFORM_API_KEY and AGENT_PLATFORM_BASE_URL (a credential works only on its own service).',
    );
  }
  return r(
    'other',
    'The upstream refused the credential (401) without saying why: check AGENT_PLATFORM_API_KEY, its expiry, and the IP access list.',
  );
}

/** Who `GET /v3/self` says the credential is, when the upstream has it; `identity.self` says how it went. */
export async function checkSelf(run: DoctorRun, call: OperationCaller, identity: IdentitySection): Promise<void> {
  const selfOp = run.table.find((op) => op.path === '/v3/self' && !op.params);
  if (!selfOp) return;
  const json = await call(selfOp, {}, {});
  const r = run.items.get(selfOp.id)!;
  identity.self =
    r.outcome === 'allowed'
      ? 'present'
      : r.outcome === 'not_present'
        ? 'not_present'
        : r.status === 401
          ? 'refused'
          : 'failed';
  if (json && typeof json === 'object') {
    const s = json as Record<string, unknown>;
    const str = (k: string) => (typeof s[k] === 'string' ? (s[k] as string) : null);
    identity.principal = {
      principal_type: str('principal_type'),
      service_user_id: str('service_user_id'),
      service_user_name: str('service_user_name'),
      org_id: str('org_id'),
      permissions: Array.isArray(s.permissions) ? s.permissions.filter((p) => typeof p === 'string') : null,
    };
  }
}

export function emptyIdentity(credentialForm: CredentialForm): IdentitySection {
  return {
    verdict: verdict('skipped', ''),
    credential_form: credentialForm,
    self: 'not_tried',
    principal: null,
    unauthorized: null,
  };
}

/** Section 2's verdict, once the walk has said whether any operation is allowed. */
export function identityVerdict(
  run: DoctorRun,
  identity: IdentitySection,
  reachable: boolean,
  allowed: number,
): IdentitySection['verdict'] {
  const { unauthorized, credentialForm } = run;
  if (!reachable) return verdict('skipped', 'Not checked: the upstream cannot be reached');
  if (unauthorized) {
    return verdict('fail', `The credential does not work (401, ${unauthorized.reason}): ${unauthorized.explanation}`);
  }
  const p = identity.principal;
  const who = p
    ? `${p.principal_type ?? 'principal'} ${p.service_user_name ? `"${p.service_user_name}" ` : ''}(${p.service_user_id ?? 'no id'})${p.org_id ? ` of ${p.org_id}` : ', enterprise-wide'}`
    : null;
  const form =
    credentialForm === 'cog' ? 'the credential has the cog_ form' : 'the credential does NOT have the cog_ form';
  if (identity.self === 'present') {
    return verdict(credentialForm === 'cog' ? 'ok' : 'warn', `Signed in as ${who}; ${form}`);
  }
  if (allowed > 0) {
    return verdict(
      'warn',
      `GET /v3/self is ${identity.self === 'not_present' ? 'not present on this upstream' : 'not answering'}; the credential works (${plural(allowed, 'operation')} allowed); ${form}`,
    );
  }
  return verdict('fail', `No identity and no operation allowed; ${form}`);
}
