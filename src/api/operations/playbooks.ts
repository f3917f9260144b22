/**
 * Playbooks: the enterprise and organization lists, one playbook (get, create, update, delete). The spec lists
 * the paths and the permission (`ManageAccountPlaybooks`); the record and the create body come from the vendor
 * reference (PlaybookResponse, PlaybookCreateRequest). An enterprise playbook is usable in every organization;
 * an organization's playbook only there.
 */
import { z } from 'zod';
import { After, First, OrgId, requiredText, UnixSeconds } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';

import { PLAYBOOK_ACCESS_TYPES, PLAYBOOK_LIMITS } from '../values';

export { PLAYBOOK_ACCESS_TYPES, PLAYBOOK_LIMITS };
export type PlaybookAccessType = (typeof PLAYBOOK_ACCESS_TYPES)[number];

/** `!` then letters, digits, `_` or `-` (vendor: "Must start with '!' followed by one or more …"). */
export const PLAYBOOK_MACRO_PATTERN = /^![A-Za-z0-9_-]+$/;

export const Playbook = z.looseObject({
  playbook_id: z.string(),
  title: z.string(),
  /** Markdown. */
  body: z.string(),
  macro: z.string().nullish(),
  access_type: z.enum(PLAYBOOK_ACCESS_TYPES),
  /** Null for an enterprise playbook. */
  org_id: z.string().nullish(),
  created_by: z.string(),
  updated_by: z.string(),
  created_at: UnixSeconds,
  updated_at: UnixSeconds,
  structured_output_schema: z.record(z.string(), z.unknown()).nullish(),
});
export type Playbook = z.infer<typeof Playbook>;

const fmt = (n: number) => n.toLocaleString('en-US');

/** Create and update body (PUT replaces the playbook; an omitted macro or schema clears it). */
export const PlaybookBody = z.strictObject({
  title: requiredText('title', PLAYBOOK_LIMITS.title, 'give the playbook a short title'),
  body: requiredText('body', PLAYBOOK_LIMITS.body, 'write the steps the agent should follow'),
  macro: z
    .string({ message: 'macro must be a string' })
    .max(PLAYBOOK_LIMITS.macro, `macro is at most ${PLAYBOOK_LIMITS.macro} characters`)
    .regex(PLAYBOOK_MACRO_PATTERN, 'macro starts with ! followed by letters, digits, _ or - (e.g. !triage)')
    .nullish(),
  structured_output_schema: z
    .record(z.string(), z.unknown(), { message: 'structured_output_schema must be a JSON object' })
    .refine((v) => JSON.stringify(v).length <= PLAYBOOK_LIMITS.structuredOutputSchema, {
      message: `structured_output_schema is at most ${fmt(PLAYBOOK_LIMITS.structuredOutputSchema)} bytes`,
    })
    .nullish(),
});
export type PlaybookBody = z.input<typeof PlaybookBody>;

const search = z
  .string()
  .max(PLAYBOOK_LIMITS.search, `search is at most ${PLAYBOOK_LIMITS.search} characters`)
  .nullish();

/** Organization list: paging, and `search` (a sandbox extension: title, macro and body, case-insensitive). */
export const OrgPlaybooksQuery = z.object({ first: First, after: After, search });
/** Enterprise list: every playbook; `search` and `access_type` are sandbox extensions. */
export const EnterprisePlaybooksQuery = OrgPlaybooksQuery.extend({
  access_type: z.enum(PLAYBOOK_ACCESS_TYPES, { message: 'access_type must be enterprise or org' }).nullish(),
});
export type EnterprisePlaybooksQuery = z.input<typeof EnterprisePlaybooksQuery>;

const PlaybookId = z.string().min(1).max(200);
const PlaybookParams = z.object({ playbook_id: PlaybookId });
const OrgPlaybookParams = z.object({ org_id: OrgId, playbook_id: PlaybookId });
const OrgParams = z.object({ org_id: OrgId });

const ENTERPRISE = '/v3/enterprise/playbooks';
const ORG = '/v3/organizations/{org_id}/playbooks';
const FILTER_NOTE =
  'search (and access_type on the enterprise list) are sandbox extensions; the console also filters the loaded rows.';

export const playbookOperations = defineOperations({
  'playbooks.enterprise.list': {
    id: 'playbooks.enterprise.list',
    method: 'GET',
    path: ENTERPRISE,
    permission: 'ManageAccountPlaybooks',
    scope: 'enterprise',
    summary: 'List every playbook: enterprise playbooks and those of each organization',
    query: EnterprisePlaybooksQuery,
    response: pageOf(Playbook),
    paginated: true,
    note: FILTER_NOTE,
  },
  'playbooks.enterprise.create': {
    id: 'playbooks.enterprise.create',
    method: 'POST',
    path: ENTERPRISE,
    permission: 'ManageAccountPlaybooks',
    scope: 'enterprise',
    summary: 'Create an enterprise playbook (usable in every organization)',
    body: PlaybookBody,
    response: Playbook,
  },
  'playbooks.enterprise.get': {
    id: 'playbooks.enterprise.get',
    method: 'GET',
    path: `${ENTERPRISE}/{playbook_id}`,
    permission: 'ManageAccountPlaybooks',
    scope: 'enterprise',
    summary: 'Get one playbook of any access type',
    params: PlaybookParams,
    response: Playbook,
  },
  'playbooks.enterprise.update': {
    id: 'playbooks.enterprise.update',
    method: 'PUT',
    path: `${ENTERPRISE}/{playbook_id}`,
    permission: 'ManageAccountPlaybooks',
    scope: 'enterprise',
    summary: 'Replace one playbook',
    params: PlaybookParams,
    body: PlaybookBody,
    response: Playbook,
  },
  'playbooks.enterprise.delete': {
    id: 'playbooks.enterprise.delete',
    method: 'DELETE',
    path: `${ENTERPRISE}/{playbook_id}`,
    permission: 'ManageAccountPlaybooks',
    scope: 'enterprise',
    summary: 'Delete one playbook; answers with the deleted playbook',
    params: PlaybookParams,
    response: Playbook,
  },
  'playbooks.list': {
    id: 'playbooks.list',
    method: 'GET',
    path: ORG,
    permission: 'ManageAccountPlaybooks',
    scope: 'organization',
    summary: "List an organization's own playbooks",
    params: OrgParams,
    query: OrgPlaybooksQuery,
    response: pageOf(Playbook),
    paginated: true,
    note: FILTER_NOTE,
  },
  'playbooks.create': {
    id: 'playbooks.create',
    method: 'POST',
    path: ORG,
    permission: 'ManageAccountPlaybooks',
    scope: 'organization',
    summary: 'Create a playbook of this organization',
    params: OrgParams,
    body: PlaybookBody,
    response: Playbook,
  },
  'playbooks.get': {
    id: 'playbooks.get',
    method: 'GET',
    path: `${ORG}/{playbook_id}`,
    permission: 'ManageAccountPlaybooks',
    scope: 'organization',
    summary: "Get one of the organization's playbooks",
    params: OrgPlaybookParams,
    response: Playbook,
  },
  'playbooks.update': {
    id: 'playbooks.update',
    method: 'PUT',
    path: `${ORG}/{playbook_id}`,
    permission: 'ManageAccountPlaybooks',
    scope: 'organization',
    summary: "Replace one of the organization's playbooks",
    params: OrgPlaybookParams,
    body: PlaybookBody,
    response: Playbook,
  },
  'playbooks.delete': {
    id: 'playbooks.delete',
    method: 'DELETE',
    path: `${ORG}/{playbook_id}`,
    permission: 'ManageAccountPlaybooks',
    scope: 'organization',
    summary: "Delete one of the organization's playbooks; answers with the deleted playbook",
    params: OrgPlaybookParams,
    response: Playbook,
  },
});
