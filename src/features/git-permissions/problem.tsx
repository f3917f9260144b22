/**
 * How the git permission screens show an error: as every screen does (ProblemView), except a 502 for an answer
 * the API gave but the console could not read (not JSON, or not the contract's shape). That API is reachable,
 * so calling it "unavailable" would send the admin looking for an outage; a retry gets the same answer.
 */
import type { ComponentProps } from 'react';
import { ProblemView } from '@/components/problem-view';
import { errorMessage, isApiError } from '@/lib/api-error';
import { isUnreadableAnswer } from '@/lib/unreadable-answer';
import { Button } from '@/components/ui/button';

/** True for the console's 502 saying the API answered something it could not read. */
export function isUnreadableError(error: unknown): boolean {
  return isApiError(error) && isUnreadableAnswer(error.status, error.problem);
}

export function GitProblemView(props: ComponentProps<typeof ProblemView>) {
  const { error, onRetry, children, compact } = props;
  if (!isUnreadableError(error)) return <ProblemView {...props} />;
  return (
    <div role="alert" className={`rounded-lg border border-danger/40 bg-danger/5 ${compact ? 'p-3' : 'p-4'} text-sm`}>
      <p className="font-semibold text-danger">The API answered something the console could not read</p>
      <p className="mt-1 break-words text-fg">{errorMessage(error)}</p>
      <p className="mt-1 text-muted">
        The API is reachable, but this answer does not have the shape the console relies on, so nothing was read from it
        or changed. Retrying gets the same answer until the API’s answer changes; <code>npm run doctor</code> checks
        each answer against the contract.
      </p>
      {(onRetry || children) && (
        <div className="mt-3 flex gap-2">
          {onRetry && (
            <Button size="sm" onClick={onRetry}>
              Retry
            </Button>
          )}
          {children}
        </div>
      )}
    </div>
  );
}
