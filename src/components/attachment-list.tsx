/**
 * A session's attachments: each file by name with a download link through the console (which fetches the signed
 * URL without the credential and hands the file over). URLs that are not attachment URLs are shown as they are.
 */
import { Download, Paperclip } from 'lucide-react';
import { attachmentDownloadHref, attachmentName } from '@/lib/attachments';

export function AttachmentList({ urls, headingLevel = 2 }: { urls: readonly string[]; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section aria-labelledby="attachments-heading">
      <Heading id="attachments-heading" className="mb-2 text-base font-semibold">
        Attachments
      </Heading>
      {urls.length === 0 ? (
        <p className="text-sm text-muted">No files were attached to this session.</p>
      ) : (
        <ul aria-label="Attachments" className="flex flex-col gap-1.5 rounded-lg border border-line bg-surface p-2">
          {urls.map((url) => {
            const href = attachmentDownloadHref(url);
            const name = attachmentName(url);
            return (
              <li key={url} className="flex min-w-0 items-center gap-2 px-1 py-0.5 text-sm">
                <Paperclip className="size-3.5 shrink-0 text-muted" aria-hidden />
                <span className="min-w-0 flex-1 truncate" title={name}>
                  {name}
                </span>
                {href ? (
                  <a
                    href={href}
                    download={name}
                    className="inline-flex shrink-0 items-center gap-1 rounded px-1.5 py-0.5 text-accent underline underline-offset-2 hover:no-underline"
                    aria-label={`Download ${name}`}
                  >
                    <Download className="size-3.5" aria-hidden /> Download
                  </a>
                ) : (
                  <span className="truncate text-xs text-muted" title={url}>
                    {url}
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
