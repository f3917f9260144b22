/**
 * Knowledge notes: the enterprise and organization lists, one note (get, create, update, delete) and the
 * folder tree (spec: "List enterprise knowledge notes", KnowledgeNoteResponse; shapes from the vendor
 * reference: KnowledgeNoteCreateRequest, FolderTreeResponse, FolderSummary).
 */
import { z } from 'zod';
import { After, First, OrgId, requiredText, UnixSeconds, whenFieldsParsed } from '../conventions';
import { pageOf } from '../page';
import { defineOperations } from './define';
import { NOTE_ACCESS_TYPES } from '../values';

export { NOTE_ACCESS_TYPES, type NoteAccessType } from '../values';

/**
 * Limits on a note's fields. The spec shows no maximum sizes; these are the console's own, generous enough for
 * any real note, so that neither the sandbox nor the form accepts unbounded input.
 */
export const NOTE_LIMITS = {
  name: 200,
  trigger_description: 2_000,
  body: 100_000,
  pinned_repo: 300,
} as const;

export const KnowledgeNote = z.looseObject({
  note_id: z.string(),
  name: z.string(),
  body: z.string(),
  /** The trigger, whichever name the request gave it (`trigger_description` or `trigger`). */
  trigger: z.string(),
  macro: z.string().nullish(),
  is_enabled: z.boolean(),
  access_type: z.enum(NOTE_ACCESS_TYPES),
  org_id: z.string().nullish(),
  folder_id: z.string().nullish(),
  folder_path: z.string(),
  pinned_repo: z.string().nullish(),
  created_at: UnixSeconds,
  updated_at: UnixSeconds,
});
export type KnowledgeNote = z.infer<typeof KnowledgeNote>;

export const FolderSummary = z.looseObject({
  folder_id: z.string(),
  name: z.string(),
  path: z.string(),
  note_count: z.number().int(),
  parent_folder_id: z.string().nullish(),
});
export type FolderSummary = z.infer<typeof FolderSummary>;

export const FolderTree = z.looseObject({
  folders: z.array(FolderSummary),
  root_note_count: z.number().int(),
});
export type FolderTree = z.infer<typeof FolderTree>;

/** Why a note body's trigger is wrong (missing, too long, or two names that disagree); null when it is right. */
function triggerProblem(v: { trigger_description?: string; trigger?: string }): string | null {
  const { trigger_description: spec, trigger: vendor } = v;
  if (spec === undefined && vendor === undefined) {
    return 'trigger_description (or trigger) is required: say when the agent should use this note';
  }
  if (spec !== undefined && vendor !== undefined && spec !== vendor) {
    return 'trigger_description and trigger name the same field: send one, or the same text in both';
  }
  if ((spec ?? vendor)!.length > NOTE_LIMITS.trigger_description) {
    return `trigger_description is at most ${NOTE_LIMITS.trigger_description.toLocaleString('en-US')} characters`;
  }
  return null;
}

/**
 * Create and update body. The spec names the trigger `trigger_description`; the vendor's schema requires the same
 * field as `trigger`. Either is accepted; when both are sent they must be the same text (422 otherwise: one would
 * be silently lost, and a service that knows only one name would store the other). The console sends both, so
 * either kind of upstream accepts its requests. Answers carry `trigger`. `folder_id`, `is_enabled` and
 * `pinned_repo` come from the vendor reference; on update, an omitted one keeps its value and null clears it.
 */
export const KnowledgeNoteBody = z
  .strictObject({
    name: requiredText('name', NOTE_LIMITS.name, 'give the note a short name'),
    trigger_description: z
      .string({ message: 'trigger_description must be text' })
      .max(
        NOTE_LIMITS.trigger_description,
        `trigger_description is at most ${NOTE_LIMITS.trigger_description.toLocaleString('en-US')} characters`,
      )
      .optional(),
    trigger: z.string({ message: 'trigger must be text' }).optional(),
    body: requiredText('body', NOTE_LIMITS.body, 'write what the agent should know'),
    folder_id: z.string().min(1, 'folder_id must be a folder id, or null for no folder').nullish(),
    is_enabled: z.boolean({ message: 'is_enabled must be true or false' }).nullish(),
    pinned_repo: z
      .string()
      .max(NOTE_LIMITS.pinned_repo, `pinned_repo is at most ${NOTE_LIMITS.pinned_repo} characters`)
      .nullish(),
  })
  .refine((v) => triggerProblem(v) === null, {
    path: ['trigger_description'],
    error: (iss) => triggerProblem(iss.input as { trigger_description?: string; trigger?: string }) ?? undefined,
    // Checked even when another field failed, so a note missing several fields hears of all of them.
    when: whenFieldsParsed('trigger_description', 'trigger'),
  });
export type KnowledgeNoteBody = z.input<typeof KnowledgeNoteBody>;

const nullableText = z.string().nullish();

/** Filters of the organization list (vendor reference). */
export const OrgNotesQuery = z.object({
  first: First,
  after: After,
  search: nullableText,
  folder_path: nullableText,
  pinned_repo: nullableText,
});

/** Filters of the enterprise list (spec: every one of them). */
export const EnterpriseNotesQuery = OrgNotesQuery.extend({
  access_type: z.enum(NOTE_ACCESS_TYPES, { message: 'access_type must be org or enterprise' }).nullish(),
});
export type EnterpriseNotesQuery = z.input<typeof EnterpriseNotesQuery>;

const NoteParams = z.object({ note_id: z.string().min(1) });
const OrgNoteParams = z.object({ org_id: OrgId, note_id: z.string().min(1) });
const OrgParams = z.object({ org_id: OrgId });

const ENTERPRISE = '/v3/enterprise/knowledge';
const ORG = '/v3/organizations/{org_id}/knowledge';

export const knowledgeOperations = defineOperations({
  'knowledge.enterprise.list': {
    id: 'knowledge.enterprise.list',
    method: 'GET',
    path: `${ENTERPRISE}/notes`,
    permission: 'ManageAccountKnowledge',
    scope: 'enterprise',
    summary: 'List the knowledge notes of the enterprise (both access types), with filters',
    query: EnterpriseNotesQuery,
    response: pageOf(KnowledgeNote),
    paginated: true,
  },
  'knowledge.enterprise.create': {
    id: 'knowledge.enterprise.create',
    method: 'POST',
    path: `${ENTERPRISE}/notes`,
    permission: 'ManageAccountKnowledge',
    scope: 'enterprise',
    summary: 'Create an enterprise-level note',
    body: KnowledgeNoteBody,
    response: KnowledgeNote,
  },
  'knowledge.enterprise.get': {
    id: 'knowledge.enterprise.get',
    method: 'GET',
    path: `${ENTERPRISE}/notes/{note_id}`,
    permission: 'ManageAccountKnowledge',
    scope: 'enterprise',
    summary: 'Get one note',
    params: NoteParams,
    response: KnowledgeNote,
  },
  'knowledge.enterprise.update': {
    id: 'knowledge.enterprise.update',
    method: 'PUT',
    path: `${ENTERPRISE}/notes/{note_id}`,
    permission: 'ManageAccountKnowledge',
    scope: 'enterprise',
    summary: 'Update one note',
    params: NoteParams,
    body: KnowledgeNoteBody,
    response: KnowledgeNote,
  },
  'knowledge.enterprise.delete': {
    id: 'knowledge.enterprise.delete',
    method: 'DELETE',
    path: `${ENTERPRISE}/notes/{note_id}`,
    permission: 'ManageAccountKnowledge',
    scope: 'enterprise',
    summary: 'Delete one note; answers with the deleted note',
    params: NoteParams,
    response: KnowledgeNote,
  },
  'knowledge.enterprise.folders.list': {
    id: 'knowledge.enterprise.folders.list',
    method: 'GET',
    path: `${ENTERPRISE}/folders`,
    permission: 'ManageAccountKnowledge',
    scope: 'enterprise',
    summary: 'The knowledge folder tree with per-folder note counts',
    response: FolderTree,
  },
  'knowledge.list': {
    id: 'knowledge.list',
    method: 'GET',
    path: `${ORG}/notes`,
    permission: 'ManageAccountKnowledge',
    scope: 'organization',
    summary: 'List the org-level notes of an organization, with filters',
    params: OrgParams,
    query: OrgNotesQuery,
    response: pageOf(KnowledgeNote),
    paginated: true,
  },
  'knowledge.create': {
    id: 'knowledge.create',
    method: 'POST',
    path: `${ORG}/notes`,
    permission: 'ManageAccountKnowledge',
    scope: 'organization',
    summary: 'Create an org-level note',
    params: OrgParams,
    body: KnowledgeNoteBody,
    response: KnowledgeNote,
  },
  'knowledge.get': {
    id: 'knowledge.get',
    method: 'GET',
    path: `${ORG}/notes/{note_id}`,
    permission: 'ManageAccountKnowledge',
    scope: 'organization',
    summary: 'Get one org-level note',
    params: OrgNoteParams,
    response: KnowledgeNote,
  },
  'knowledge.update': {
    id: 'knowledge.update',
    method: 'PUT',
    path: `${ORG}/notes/{note_id}`,
    permission: 'ManageAccountKnowledge',
    scope: 'organization',
    summary: 'Update one org-level note',
    params: OrgNoteParams,
    body: KnowledgeNoteBody,
    response: KnowledgeNote,
  },
  'knowledge.delete': {
    id: 'knowledge.delete',
    method: 'DELETE',
    path: `${ORG}/notes/{note_id}`,
    permission: 'ManageAccountKnowledge',
    scope: 'organization',
    summary: 'Delete one org-level note; answers with the deleted note',
    params: OrgNoteParams,
    response: KnowledgeNote,
  },
  'knowledge.folders.list': {
    id: 'knowledge.folders.list',
    method: 'GET',
    path: `${ORG}/folders`,
    permission: 'ManageAccountKnowledge',
    scope: 'organization',
    summary: "The knowledge folder tree with note counts of the organization's notes",
    params: OrgParams,
    response: FolderTree,
  },
});
