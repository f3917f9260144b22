/**
 * The console as an OpenID Connect relying party, through openid-client (a certified implementation):
 * authorization code with PKCE, `state` and `nonce`; the ID token's signature, issuer, audience and expiry
 * checked there, with the clock skew bounded. Discovery happens at the first sign-in, not at start (the console
 * starts while the provider is briefly down), and is tried again at the next sign-in after a failure.
 */
import * as client from 'openid-client';
import type { OidcConfig } from './config';

/**
 * Seconds an ID token's times may be off from this server's clock: its expiry (`exp`) and not-before (`nbf`),
 * checked by the library, and when it was issued (`iat`), checked here — a token issued further in the future
 * than this means the provider's clock and the console's disagree by more than the bound.
 */
export const CLOCK_TOLERANCE_S = 30;

/** An ID token issued later than this server's clock allows (beyond CLOCK_TOLERANCE_S). */
export class ClockSkewError extends Error {
  constructor(readonly aheadS: number) {
    super(`the ID token's "iat" is ${aheadS} s ahead of this server's clock (tolerance ${CLOCK_TOLERANCE_S} s)`);
  }
}
const DISCOVERY_TIMEOUT_S = 10;

export interface OidcStart {
  url: string;
  state: string;
  nonce: string;
  verifier: string;
}

/** The person, from a verified ID token. */
export interface OidcPerson {
  subject: string;
  name: string | null;
  email: string | null;
  groups: string[];
  /** Epoch seconds the person authenticated at the provider (auth_time), when given. */
  authTime: number | null;
}

export interface OidcClient {
  readonly providerName: string;
  start(): Promise<OidcStart>;
  /** Exchanges the code of the callback (`query` is its query string) and verifies the ID token. */
  finish(query: string, login: { state: string; nonce: string; verifier: string }): Promise<OidcPerson>;
  /** The provider's end-session URL, when its discovery document publishes one (known after a discovery). */
  endSessionUrl(): string | undefined;
  /** The same, discovering the provider first when this process has not yet (undefined when it cannot). */
  findEndSessionUrl(): Promise<string | undefined>;
}

/** Groups kept per person, and their length: a claim is bounded like every input. */
const MAX_GROUPS = 500;
const MAX_TEXT = 320;
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const text = (v: unknown, max = MAX_TEXT): string | null =>
  typeof v === 'string' && v.trim() ? v.replace(UNPRINTABLE, '').trim().slice(0, max) || null : null;

const pick = (o: Record<string, unknown>, keys: string[]) =>
  Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));

const isLoopback = (u: URL) => /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/i.test(u.hostname);

/**
 * `maxAgeS`: the longest a console session lasts (CONSOLE_SESSION_MAX_HOURS), asked of the provider as `max_age`
 * so that a person whose sign-in at the provider is older authenticates again (and checked on the ID token's
 * `auth_time`) rather than landing in a console session that has ended already.
 */
export function createOidcClient(cfg: OidcConfig, opts: { now?: () => number; maxAgeS?: number } = {}): OidcClient {
  const now = opts.now ?? Date.now;
  const issuer = new URL(cfg.issuer);
  let discovered: Promise<client.Configuration> | undefined;
  let known: client.Configuration | undefined;
  const configuration = () => {
    discovered ??= client
      .discovery(
        issuer,
        cfg.clientId,
        {
          client_secret: cfg.clientSecret,
          // This server's clock as the console sees it (tests move it), and the skew it tolerates.
          [client.clockSkew]: Math.round((now() - Date.now()) / 1000),
          [client.clockTolerance]: CLOCK_TOLERANCE_S,
        },
        undefined,
        {
          timeout: DISCOVERY_TIMEOUT_S,
          // http:// is accepted for a provider on loopback only (the configuration refuses any other).
          execute: issuer.protocol === 'http:' && isLoopback(issuer) ? [client.allowInsecureRequests] : [],
        },
      )
      .then((c) => (known = c));
    // A failed discovery is tried again by the next sign-in.
    discovered.catch(() => (discovered = undefined));
    return discovered;
  };
  const endSessionUrl = () => {
    if (!known?.serverMetadata().end_session_endpoint) return undefined;
    return client.buildEndSessionUrl(known, { client_id: cfg.clientId }).href;
  };
  return {
    providerName: cfg.providerName,
    async start() {
      const config = await configuration();
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: cfg.redirectUri,
        scope: cfg.scopes,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        ...(opts.maxAgeS ? { max_age: String(opts.maxAgeS) } : {}),
      });
      return { url: url.href, state, nonce, verifier };
    },
    async finish(query, login) {
      const config = await configuration();
      const tokens = await client.authorizationCodeGrant(config, new URL(`${cfg.redirectUri}?${query}`), {
        pkceCodeVerifier: login.verifier,
        expectedState: login.state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
        ...(opts.maxAgeS ? { maxAge: opts.maxAgeS } : {}),
      });
      const idClaims = tokens.claims();
      if (!idClaims) throw new Error('the provider answered without an ID token');
      const ahead = idClaims.iat - Math.floor(now() / 1000);
      if (ahead > CLOCK_TOLERANCE_S) throw new ClockSkewError(ahead);
      let claims: Record<string, unknown> = idClaims;
      // Providers that keep profile claims out of the ID token (OIDC's default) answer them at userinfo,
      // for the same subject (checked by the library).
      if ((claims[cfg.groupsClaim] === undefined || claims.email === undefined) && tokens.access_token) {
        const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub).catch(() => undefined);
        if (info) claims = { ...info, ...idClaims, ...pick(info, [cfg.groupsClaim, 'email', 'name']) };
      }
      const rawGroups = claims[cfg.groupsClaim];
      const groups = (Array.isArray(rawGroups) ? rawGroups : typeof rawGroups === 'string' ? [rawGroups] : [])
        .map((g) => text(g, 200))
        .filter((g): g is string => g !== null)
        .slice(0, MAX_GROUPS);
      const email = text(claims.email);
      return {
        subject: String(claims.sub).slice(0, MAX_TEXT),
        name: text(claims.name, 80) ?? text(claims.preferred_username, 80) ?? email?.slice(0, 80) ?? null,
        email,
        groups,
        authTime: typeof idClaims.auth_time === 'number' ? idClaims.auth_time : null,
      };
    },
    endSessionUrl,
    async findEndSessionUrl() {
      // Another replica may have signed the person in: this one discovers the provider now (bounded by its timeout).
      if (!known) await configuration().catch(() => undefined);
      return endSessionUrl();
    },
  };
}

/** What a refused callback says, from the library's error: which check failed, in words. */
export function refusalReason(err: unknown): string {
  // The library wraps the failed check: its message, code and the claim it compared are along the cause chain.
  if (err instanceof ClockSkewError) {
    return `the ID token was issued ${err.aheadS} s ahead of the console's clock (more than the ${CLOCK_TOLERANCE_S} s allowed): the provider's clock and the console's disagree`;
  }
  const parts: string[] = [];
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth++) {
    const o = e as { message?: unknown; code?: unknown; claim?: unknown; error?: unknown; cause?: unknown };
    parts.push(String(o.message ?? ''), String(o.code ?? ''), String(o.error ?? ''));
    if (typeof o.claim === 'string') parts.push(`"${o.claim}"`);
    e = o.cause;
  }
  const all = parts.join(' ');
  if (/nonce/i.test(all)) return 'the provider’s answer does not belong to this sign-in (its nonce does not match)';
  if (/"iss"|issuer/i.test(all)) return 'the answer came from another issuer than the configured provider';
  if (/"aud"|audience|"azp"/i.test(all)) return 'the ID token was issued for another application (audience)';
  if (/auth_time|elapsed since the last End-User authentication/i.test(all)) {
    return 'your sign-in at the provider is older than a console session may last: sign in there again';
  }
  if (/"exp"|expired|timestamp/i.test(all)) return 'the ID token has expired';
  if (/invalid_grant|grant/i.test(all)) return 'the sign-in code was already used or is not valid';
  if (/state/i.test(all)) return 'the answer does not belong to this sign-in (its state does not match)';
  if (/access_denied/i.test(all)) return 'the provider did not let you sign in';
  if (/fetch|ECONNREFUSED|timeout|discovery|network/i.test(all)) return 'the identity provider could not be reached';
  return 'the provider’s answer could not be verified';
}
