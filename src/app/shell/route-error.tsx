/** The route error view (with retry) and the not-found page. */
import { useQueryErrorResetBoundary } from '@tanstack/react-query';
import { Link, useRouter, type ErrorComponentProps } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useFocusOnPageChange, usePageTitle } from '@/lib/page-title';
import { ProblemView } from '@/components/problem-view';

export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const queryErrorResetBoundary = useQueryErrorResetBoundary();
  useEffect(() => {
    queryErrorResetBoundary.reset();
  }, [queryErrorResetBoundary]);
  return (
    <div className="mx-auto max-w-2xl py-8">
      <ProblemView
        page
        error={error}
        onRetry={() => {
          reset();
          void router.invalidate();
        }}
      >
        <Link
          to="/"
          className="inline-flex h-7 items-center rounded-md px-2.5 text-xs font-medium text-accent underline underline-offset-2 hover:no-underline"
        >
          Go to the overview
        </Link>
      </ProblemView>
    </div>
  );
}

export function NotFound({ what }: { what?: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  usePageTitle(what ?? 'Page not found');
  useFocusOnPageChange(heading);
  return (
    <div className="mx-auto max-w-2xl py-16 text-center">
      <p className="text-sm font-semibold text-accent">404</p>
      <h1 ref={heading} tabIndex={-1} className="mt-2 text-2xl font-semibold outline-none">
        {what ?? 'Page not found'}
      </h1>
      <p className="mt-2 text-sm text-muted">The link may be old, or the item may have been removed.</p>
      <Link
        to="/"
        className="mt-6 inline-block text-sm font-medium text-accent underline underline-offset-2 hover:no-underline"
      >
        Go to the overview
      </Link>
    </div>
  );
}
