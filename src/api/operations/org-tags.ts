/**
 * Allowed session tags per organization (spec: further operations, "when tag validation is enabled, session
 * creation and tag updates must use allowed tags"; shapes from the vendor reference: TagsResponse,
 * TagsCreateRequest, DefaultTagResponse, DefaultTagRequest).
 *
 * Console's choices where neither shows them: the permission (`ManageOrganizations`); tag validation is on for an
 * organization while its allowed list is not empty (the reference shows no separate switch); the default tag is
 * given to sessions created without tags, and must be an allowed tag while validation is on; a list holds at most
 * 1,000 tags, each a session tag (1–64 characters, no comma).
 */
import { z } from 'zod';
import { OrgId } from '../conventions';
import { defineOperations } from './define';
import { Tag } from './sessions';

export const ORG_TAG_LIMITS = { tags: 1_000 } as const;

export const AllowedTags = z.looseObject({ tags: z.array(z.string()) });
export const DefaultTag = z.looseObject({ default_tag: z.string().nullable() });

export const AllowedTagsBody = z.strictObject({
  tags: z
    .array(Tag, { message: 'tags is required: a list of tags' })
    .max(ORG_TAG_LIMITS.tags, `an organization allows at most ${ORG_TAG_LIMITS.tags} tags`),
});
export type AllowedTagsBody = z.input<typeof AllowedTagsBody>;

export const DefaultTagBody = z.strictObject({ tag: Tag });
export type DefaultTagBody = z.input<typeof DefaultTagBody>;

const PATH = '/v3/enterprise/organizations/{org_id}/tags';
const OrgParams = z.object({ org_id: OrgId });
const TagParams = z.object({ org_id: OrgId, tag: z.string().min(1) });
const NOTE = 'Permission not shown in the spec; ManageOrganizations chosen.';

export const orgTagOperations = defineOperations({
  'organizations.tags.get': {
    id: 'organizations.tags.get',
    method: 'GET',
    path: PATH,
    permission: 'ManageOrganizations',
    scope: 'enterprise',
    summary: "An organization's allowed session tags (empty: tags are not validated)",
    params: OrgParams,
    response: AllowedTags,
    note: NOTE,
  },
  'organizations.tags.append': {
    id: 'organizations.tags.append',
    method: 'POST',
    path: PATH,
    permission: 'ManageOrganizations',
    scope: 'enterprise',
    summary: 'Add allowed tags (ones already allowed are kept once)',
    params: OrgParams,
    body: AllowedTagsBody,
    response: AllowedTags,
    note: NOTE,
  },
  'organizations.tags.replace': {
    id: 'organizations.tags.replace',
    method: 'PUT',
    path: PATH,
    permission: 'ManageOrganizations',
    scope: 'enterprise',
    summary: 'Replace the allowed tags',
    params: OrgParams,
    body: AllowedTagsBody,
    response: AllowedTags,
    note: `${NOTE} A default tag no longer allowed is cleared.`,
  },
  'organizations.tags.clear': {
    id: 'organizations.tags.clear',
    method: 'DELETE',
    path: PATH,
    permission: 'ManageOrganizations',
    scope: 'enterprise',
    summary: 'Clear the allowed tags: tags are no longer validated',
    params: OrgParams,
    response: AllowedTags,
    note: NOTE,
  },
  'organizations.defaultTag.get': {
    id: 'organizations.defaultTag.get',
    method: 'GET',
    path: `${PATH}/default`,
    permission: 'ManageOrganizations',
    scope: 'enterprise',
    summary: "The organization's default tag (null: none)",
    params: OrgParams,
    response: DefaultTag,
    note: NOTE,
  },
  'organizations.defaultTag.update': {
    id: 'organizations.defaultTag.update',
    method: 'PUT',
    path: `${PATH}/default`,
    permission: 'ManageOrganizations',
    scope: 'enterprise',
    summary: 'Set the default tag, given to sessions created without tags',
    params: OrgParams,
    body: DefaultTagBody,
    response: DefaultTag,
    note: `${NOTE} 422 when validation is on and the tag is not allowed.`,
  },
  'organizations.defaultTag.clear': {
    id: 'organizations.defaultTag.clear',
    method: 'DELETE',
    path: `${PATH}/default`,
    permission: 'ManageOrganizations',
    scope: 'enterprise',
    summary: 'Clear the default tag',
    params: OrgParams,
    response: DefaultTag,
    note: NOTE,
  },
  // After the `/default` operations, so DELETE …/tags/default clears the default tag.
  'organizations.tags.remove': {
    id: 'organizations.tags.remove',
    method: 'DELETE',
    path: `${PATH}/{tag}`,
    permission: 'ManageOrganizations',
    scope: 'enterprise',
    summary: 'Remove one allowed tag (404 when it is not allowed)',
    params: TagParams,
    response: AllowedTags,
    note: `${NOTE} In the vendor reference, not in the spec. The tag "default" cannot be removed this way (the path is the default tag's).`,
  },
});
