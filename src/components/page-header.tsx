/**
 * The heading of a screen, with an optional description and actions. It names the page in the tab's title
 * and takes focus when the admin arrives from another page.
 */
import { useRef, type ReactNode } from 'react';
import { useFocusOnPageChange, usePageTitle } from '@/lib/page-title';

export function PageHeader({
  title,
  documentTitle,
  description,
  actions,
}: {
  title: ReactNode;
  /** The page's name in the tab's title when `title` is not plain text. */
  documentTitle?: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  usePageTitle(documentTitle ?? (typeof title === 'string' ? title : undefined));
  useFocusOnPageChange(heading);
  return (
    <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
      <div className="min-w-0">
        <h1 ref={heading} tabIndex={-1} className="text-xl font-semibold tracking-tight outline-none">
          {title}
        </h1>
        {description && <p className="mt-1 text-sm text-muted">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" data-loading className="flex items-center gap-2 py-6 text-sm text-muted">
      <span className="size-4 animate-spin rounded-full border-2 border-line border-t-accent" aria-hidden />
      {label}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-line p-8 text-center">
      <p className="font-medium">{title}</p>
      {children && <div className="mt-1 text-sm text-muted">{children}</div>}
    </div>
  );
}
