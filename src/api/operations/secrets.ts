/**
 * Organization secrets (spec: "Further operations", `ManageOrgSecrets`; shapes from the vendor reference:
 * SecretResponse, SecretCreateRequest). List, create and delete; there is no get and no update. A value goes in
 * once and is never returned by any operation: the record carries the key, the type and the note only.
 *
 * Types: `cookie`, `key-value`, `totp`. `dictionary` is recognized on read (older secrets) but creating one is
 * refused as deprecated (422 on `type`). A second secret with the same key in an organization answers 409.
 */
import { z } from 'zod';
import { After, First, OrgId, UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';

/** Types a secret can be created with. */
export const SECRET_TYPES = ['cookie', 'key-value', 'totp'] as const;
export type SecretType = (typeof SECRET_TYPES)[number];
/** Types a secret may have when read: the creatable ones and the deprecated `dictionary`. */
export const READABLE_SECRET_TYPES = [...SECRET_TYPES, 'dictionary'] as const;
export const SECRET_ACCESS_TYPES = ['org', 'personal'] as const;

/** What each type holds, for the form and the README. */
export const SECRET_TYPE_LABELS: Record<(typeof READABLE_SECRET_TYPES)[number], string> = {
  'key-value': 'Key-value',
  cookie: 'Cookie',
  totp: 'TOTP',
  dictionary: 'Dictionary (deprecated)',
};

/**
 * Limits. The reference shows none; these are the console's own, in line with the session secrets' (key 1–256
 * characters, value at most 65,536).
 */
export const SECRET_LIMITS = { key: 256, value: 65_536, note: 1_000 } as const;

const fmt = (n: number) => n.toLocaleString('en-US');

/** A TOTP seed: a base32 secret (spaces allowed, as authenticator apps show it) or an `otpauth://totp/` URI. */
export function isTotpSeed(value: string): boolean {
  const v = value.trim();
  if (/^otpauth:\/\/totp\//i.test(v)) return /[?&]secret=[A-Z2-7]+=*(&|$)/i.test(v);
  const compact = v.replace(/\s+/g, '');
  return compact.length >= 16 && /^[A-Z2-7]+=*$/i.test(compact);
}

/** A secret as read: never its value. `type` may be any string (unknown ones are shown as they are). */
export const Secret = z.looseObject({
  secret_id: z.string(),
  secret_type: z.string(),
  key: z.string().nullable(),
  note: z.string().nullable(),
  is_sensitive: z.boolean(),
  access_type: z.string(),
  /** Who created it: a user or service-user id. */
  created_by: z.string(),
  /** Sandbox extension: the creator's name, when known. */
  created_by_name: z.string().nullish(),
  created_at: UnixSeconds,
  updated_at: UnixSeconds.nullish(),
  updated_by: z.string().nullish(),
});
export type Secret = z.infer<typeof Secret>;

/** Create body (reference: SecretCreateRequest), with the limits above and the rules of the spec. */
export const CreateSecretBody = z
  .strictObject({
    type: z
      .enum(READABLE_SECRET_TYPES, { message: 'type must be key-value, cookie or totp' })
      .refine((t) => t !== 'dictionary', {
        message: 'dictionary secrets are deprecated and can no longer be created; use key-value',
      }),
    key: z
      .string({ message: 'key is required' })
      .max(SECRET_LIMITS.key, `key is at most ${SECRET_LIMITS.key} characters`)
      .refine((s) => s.trim().length > 0, { message: 'key must not be empty' })
      .refine((s) => ![...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f), {
        message: 'key cannot contain control characters',
      })
      .transform((s) => s.trim()),
    value: z
      .string({ message: 'value is required' })
      .min(1, 'value must not be empty')
      .max(SECRET_LIMITS.value, `value is at most ${fmt(SECRET_LIMITS.value)} characters`),
    is_sensitive: z.boolean({ message: 'is_sensitive must be true or false' }).default(true),
    note: z
      .string({ message: 'note must be a string' })
      .max(SECRET_LIMITS.note, `note is at most ${fmt(SECRET_LIMITS.note)} characters`)
      .nullish(),
  })
  .superRefine((b, ctx) => {
    if (b.type === 'totp' && b.value.length > 0 && !isTotpSeed(b.value)) {
      ctx.addIssue({
        code: 'custom',
        path: ['value'],
        message: 'a TOTP secret is a base32 seed (16+ characters A–Z, 2–7) or an otpauth://totp/ URI',
      });
    }
  });
export type CreateSecretBody = z.input<typeof CreateSecretBody>;

export const SecretListQuery = z.object({ first: First, after: After });

const OrgParams = z.object({ org_id: OrgId });
const SecretParams = z.object({ org_id: OrgId, secret_id: z.string().min(1).max(200) });
const PATH = '/v3/organizations/{org_id}/secrets';

export const secretOperations = defineOperations({
  'secrets.list': {
    id: 'secrets.list',
    method: 'GET',
    path: PATH,
    permission: 'ManageOrgSecrets',
    scope: 'organization',
    summary: "List the organization's secrets, newest first; never their values",
    params: OrgParams,
    query: SecretListQuery,
    response: pageOf(Secret),
    paginated: true,
  },
  'secrets.create': {
    id: 'secrets.create',
    method: 'POST',
    path: PATH,
    permission: 'ManageOrgSecrets',
    scope: 'organization',
    summary: 'Create a secret (cookie, key-value or totp); 409 when the key is taken; the value is never returned',
    params: OrgParams,
    body: CreateSecretBody,
    response: Secret,
    note: 'Creating a dictionary secret is refused as deprecated (422).',
  },
  'secrets.delete': {
    id: 'secrets.delete',
    method: 'DELETE',
    path: `${PATH}/{secret_id}`,
    permission: 'ManageOrgSecrets',
    scope: 'organization',
    summary: 'Delete a secret; answers the deleted record (without its value)',
    params: SecretParams,
    response: Secret,
  },
});
