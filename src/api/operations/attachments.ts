/**
 * Attachments (spec: "Further operations"): files uploaded for sessions. Upload is `multipart/form-data` with one
 * part named `file` (`UseAgentSessions`) and answers `{attachment_id, name, url}`; the `url` is what a session is
 * created with (`attachment_urls`) or what a message names. Download (`ViewOrgSessions`) answers a redirect to a
 * short-lived signed URL, as the real service does; the file itself is served there, without the credential.
 *
 * The size limit is the console's and the sandbox's (the spec shows none): 10 MiB (10,485,760 bytes) per file, checked by the form
 * before sending, by the console's proxy while streaming, and by the sandbox while storing (413 beyond). A file name
 * holds no control or text-direction character (422; see attachmentNameRefusal).
 */
import { z } from 'zod';
import { OrgId } from '../conventions';
import { defineOperations } from './define';
import { unsafeNameMessage } from './name-characters';

export const ATTACHMENT_LIMITS = {
  /** Largest file, in bytes (10 MiB). */
  maxBytes: 10 * 1024 * 1024,
  /** Longest file name, in characters. */
  name: 255,
  /** Room for the multipart envelope (boundaries, part headers) on top of the file. */
  envelopeBytes: 64 * 1024,
  /** Files one form attaches at once (the console's own bound). */
  filesAtOnce: 20,
} as const;

/** "10 MiB" (10,485,760 bytes): the size limit as people read it. */
export const ATTACHMENT_SIZE_LABEL = '10 MiB';

/** The multipart part that carries the file. */
export const ATTACHMENT_FIELD = 'file';

/** The upload's answer. */
export const UploadedAttachment = z.looseObject({
  attachment_id: z.string(),
  name: z.string(),
  url: z.string(),
  /** Sandbox extension: the stored size in bytes. */
  size: z.number().int().nonnegative().nullish(),
  /** Sandbox extension: the content type the file was stored with. */
  content_type: z.string().nullish(),
});
export type UploadedAttachment = z.infer<typeof UploadedAttachment>;

/** The last segment of what the browser sent as a file name (no directories). */
const lastSegment = (raw: string) => raw.split(/[\\/]/).pop() ?? '';

/**
 * Why a file name cannot be stored, or null when it can: control and text-direction characters are refused
 * (name-characters.ts: "File name contains a right-to-left override (U+202E) at character 8; …"), never silently
 * removed, and what is left once trimmed must be 1–255 characters, not `.` or `..`.
 */
export function attachmentNameRefusal(raw: string): string | null {
  const base = lastSegment(raw);
  const unsafe = unsafeNameMessage('File name', base);
  if (unsafe) return unsafe;
  const name = base.trim();
  if (!name) return 'File name must not be empty';
  if (name === '.' || name === '..') return `File name cannot be ${name}`;
  if (name.length > ATTACHMENT_LIMITS.name) {
    return `File name is at most ${ATTACHMENT_LIMITS.name} characters; this one has ${name.length}`;
  }
  return null;
}

/** A file name as stored: the last segment of what the browser sent, trimmed; null when it is refused. */
export function cleanAttachmentName(raw: string): string | null {
  return attachmentNameRefusal(raw) === null ? lastSegment(raw).trim() : null;
}

const DOWNLOAD_PATH = /^\/v3\/organizations\/(org-[^/?#]+)\/attachments\/([^/?#]+)\/([^/?#]+)$/;
const UPLOAD_PATH = /^\/v3\/organizations\/org-[^/?#]+\/attachments$/;

/** True for the upload operation's upstream path (`/v3/organizations/{org_id}/attachments`, no query). */
export function isAttachmentUploadPath(upstreamPath: string): boolean {
  return UPLOAD_PATH.test(upstreamPath);
}

/** True for the download operation's upstream path (query allowed). */
export function isAttachmentDownloadPath(upstreamPath: string): boolean {
  const q = upstreamPath.indexOf('?');
  return DOWNLOAD_PATH.test(q === -1 ? upstreamPath : upstreamPath.slice(0, q));
}

/**
 * The download operation an attachment URL names (any host: the sandbox's, the real API's), or null for a URL
 * that is not one. The console downloads through its own proxy with these, never from the URL's host.
 */
export function parseAttachmentUrl(url: string): { org_id: string; uuid: string; name: string } | null {
  let path: string;
  try {
    path = new URL(url, 'http://x.invalid').pathname;
  } catch {
    return null;
  }
  const m = DOWNLOAD_PATH.exec(path);
  if (!m) return null;
  try {
    return { org_id: m[1]!, uuid: decodeURIComponent(m[2]!), name: decodeURIComponent(m[3]!) };
  } catch {
    return null;
  }
}

const OrgParams = z.object({ org_id: OrgId });
const DownloadParams = z.object({
  org_id: OrgId,
  uuid: z.string().min(1).max(200),
  name: z
    .string()
    .min(1)
    .max(ATTACHMENT_LIMITS.name * 4),
});

export const attachmentOperations = defineOperations({
  'attachments.create': {
    id: 'attachments.create',
    method: 'POST',
    path: '/v3/organizations/{org_id}/attachments',
    permission: 'UseAgentSessions',
    scope: 'organization',
    summary: `Upload a file (multipart/form-data, one part named file, at most ${ATTACHMENT_SIZE_LABEL})`,
    params: OrgParams,
    multipart: { field: ATTACHMENT_FIELD, maxBytes: ATTACHMENT_LIMITS.maxBytes },
    response: UploadedAttachment,
    note: 'The size limit is the console’s own (the spec shows none); larger files answer 413.',
  },
  'attachments.get': {
    id: 'attachments.get',
    method: 'GET',
    path: '/v3/organizations/{org_id}/attachments/{uuid}/{name}',
    permission: 'ViewOrgSessions',
    scope: 'organization',
    summary: 'Download a file: a redirect (302) to a short-lived signed URL that needs no credential',
    params: DownloadParams,
    redirect: true,
  },
});
