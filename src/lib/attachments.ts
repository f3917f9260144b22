/**
 * Attachments in the browser: uploading a file through the console's proxy with progress and cancel
 * (XMLHttpRequest: fetch reports no upload progress), the size rule checked before anything is sent, and the
 * same-origin download link of an attachment URL (the proxy fetches the signed URL; the browser never goes to the
 * API's host).
 */
import {
  ATTACHMENT_FIELD,
  ATTACHMENT_LIMITS,
  ATTACHMENT_SIZE_LABEL,
  attachmentNameRefusal,
  cleanAttachmentName,
  parseAttachmentUrl,
  type UploadedAttachment,
} from '@/api/operations/attachments';
import { problem } from '@/api/problem';
import { ApiError } from './api-error';
import { readProblem } from './api-client';

/** "2.4 MiB": a size as people read it, in the binary units the limit is stated in. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

/** Why a file cannot be uploaded, before sending it; null when it can. */
export function attachmentRefusal(file: { name: string; size: number }): string | null {
  if (file.size > ATTACHMENT_LIMITS.maxBytes) {
    return `${file.name} is ${formatBytes(file.size)} (${file.size.toLocaleString('en-US')} bytes); files are at most ${ATTACHMENT_SIZE_LABEL}`;
  }
  if (file.size === 0) return `${file.name} is empty`;
  const nameRefusal = attachmentNameRefusal(file.name);
  if (nameRefusal) return nameRefusal;
  if (cleanAttachmentName(file.name) === null) {
    return `A file name is 1 to ${ATTACHMENT_LIMITS.name} characters`;
  }
  return null;
}

export interface UploadHandle {
  promise: Promise<UploadedAttachment>;
  /** Stops sending; the promise rejects with an AbortError. */
  abort(): void;
}

/** Uploads one file to an organization; `onProgress` gets bytes sent and the total as they go. */
export function uploadAttachment(
  orgId: string,
  file: File,
  onProgress: (sent: number, total: number) => void,
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<UploadedAttachment>((resolve, reject) => {
    const refusal = attachmentRefusal(file);
    if (refusal) {
      reject(new ApiError(413, problem(413, refusal), undefined, 'attachments.create'));
      return;
    }
    xhr.open('POST', `/api/v3/organizations/${encodeURIComponent(orgId)}/attachments`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.onload = () => {
      const res = new Response(xhr.responseText, {
        status: xhr.status,
        headers: { 'content-type': xhr.getResponseHeader('content-type') ?? '' },
      });
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as UploadedAttachment);
        } catch {
          reject(new ApiError(502, problem(502, 'The API answered the upload with a body that is not JSON')));
        }
        return;
      }
      void readProblem(res).then((p) =>
        reject(
          new ApiError(xhr.status, p, Number(xhr.getResponseHeader('retry-after')) || undefined, 'attachments.create'),
        ),
      );
    };
    xhr.onerror = () =>
      reject(
        new ApiError(
          0,
          problem(0, 'The upload could not reach the console server; retry.', { title: 'Network error' }),
        ),
      );
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    const form = new FormData();
    form.append(ATTACHMENT_FIELD, file, file.name);
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

/** The console's own download path of an attachment URL (whatever its host), or null when it is not one. */
export function attachmentDownloadHref(url: string): string | null {
  const parsed = parseAttachmentUrl(url);
  if (!parsed) return null;
  return `/api/v3/organizations/${encodeURIComponent(parsed.org_id)}/attachments/${encodeURIComponent(parsed.uuid)}/${encodeURIComponent(parsed.name)}`;
}

/** The file name an attachment URL ends with. */
export function attachmentName(url: string): string {
  return parseAttachmentUrl(url)?.name ?? url.split('/').pop() ?? url;
}
