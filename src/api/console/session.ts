/**
 * Who uses the console: the name a person gives when signing in (on the sign-in page, or bound to a one-time
 * link with `npm start -- --sign-in-link --as "Dana Reyes"`), what `GET /console/session` answers, and how a
 * change recorded in the console's history says who made it (`made_by`).
 *
 * `/console/session`, `/console/sign-in` and `/console/sign-out` are answered by the access control in front of
 * the console's operation table (they work without a session, or end one), so they are not rows of that table;
 * their shapes live here.
 */
import { z } from 'zod';

/** The longest name a sign-in takes, in characters (after trimming). */
export const SIGN_IN_NAME_MAX = 80;

/** Control characters, format characters (bidi overrides, zero-width), line and paragraph separators. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/**
 * The name of the person signing in: 1–80 characters once trimmed, without control or invisible formatting
 * characters (it is shown beside every change the person makes).
 */
export const SignInName = z
  .string()
  .trim()
  .min(1, `Enter your name (1–${SIGN_IN_NAME_MAX} characters)`)
  .max(SIGN_IN_NAME_MAX, `At most ${SIGN_IN_NAME_MAX} characters`)
  .refine((s) => !UNPRINTABLE.test(s), 'Letters, digits, spaces and punctuation only (no control characters)');

/** The first problem with a name, or null when it is acceptable; `value` is the trimmed name. */
export function checkSignInName(raw: string): { ok: true; value: string } | { ok: false; message: string } {
  const r = SignInName.safeParse(raw);
  return r.success ? { ok: true, value: r.data } : { ok: false, message: r.error.issues[0]?.message ?? 'Invalid' };
}

/**
 * How a change was made, when the console knows: `person` (a sign-in session with a name), `one_time_link`
 * or `access_token` (a sign-in session opened without a name), `bearer_token` (a script sending the access
 * token), `access_control_off` (CONSOLE_AUTH=off: nobody signs in).
 */
export const MADE_BY_KINDS = ['person', 'one_time_link', 'access_token', 'bearer_token', 'access_control_off'] as const;
export type MadeByKind = (typeof MADE_BY_KINDS)[number];

/** What a history shows for a change made without a known person, by how it was made. */
export const MADE_BY_DESCRIPTIONS: Record<Exclude<MadeByKind, 'person'>, string> = {
  one_time_link: 'one-time link (no name given)',
  access_token: 'access token (sign-in page, no name given)',
  bearer_token: 'access token (script)',
  access_control_off: 'access control off',
};

/** Who made a change: a person's name, or how it was made. Null in both for changes recorded before. */
export interface MadeBy {
  made_by: string | null;
  made_by_kind: MadeByKind | null;
}

/** The fields a history revision carries (both null for revisions recorded before the console knew). */
export const madeByFields = {
  /** The signed-in person's name; or, when no person is known, how the change was made (see made_by_kind). */
  made_by: z.string().nullable(),
  made_by_kind: z.enum(MADE_BY_KINDS).nullable(),
};

/** `made_by` for a sign-in known by its name (a person) or by how it was opened. */
export function madeByOf(kind: MadeByKind, name?: string | null): MadeBy {
  if (kind === 'person' && name) return { made_by: name, made_by_kind: 'person' };
  if (kind === 'person') return { made_by: null, made_by_kind: null };
  return { made_by: MADE_BY_DESCRIPTIONS[kind], made_by_kind: kind };
}

/** One console role of the person and the grant of the console's policy that gave it. */
export const ConsoleRoleGrant = z.object({ role: z.string(), grant: z.string() });
export type ConsoleRoleGrant = z.infer<typeof ConsoleRoleGrant>;

/**
 * `GET /console/session`: how this request is signed in, until when, as whom, with which console roles, and
 * what those roles allow: per API permission, `'*'` (every organization) or the organizations it is limited to.
 * A permission absent from `permissions` is one the console's policy refuses this person.
 */
export const ConsoleSession = z.looseObject({
  signed_in: z.literal(true),
  /**
   * `oidc` (single sign-on), `link` or `token` (a sign-in session), `bearer` (a script's token), `off`
   * (CONSOLE_AUTH=off).
   */
  method: z.enum(['oidc', 'link', 'token', 'bearer', 'off']),
  /** The person's name (from the ID token, or given at sign-in); null when none is known. */
  name: z.string().nullable(),
  expires_at: z.number().int().nullable(),
  idle_expires_at: z.number().int().nullable(),
  /** The identity provider's subject and the person's email and groups (single sign-on only). */
  subject: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  groups: z.array(z.string()).optional(),
  roles: z.array(ConsoleRoleGrant).optional(),
  permissions: z.record(z.string(), z.union([z.literal('*'), z.array(z.string())])).optional(),
  /** CONSOLE_POLICY_FILE is set (without it, whoever signs in with a link or the token is admin). */
  policy_file: z.boolean().optional(),
  /** The provider's logout, when it publishes one (single sign-on only). */
  end_session_url: z.string().nullable().optional(),
});
export type ConsoleSession = z.infer<typeof ConsoleSession>;
