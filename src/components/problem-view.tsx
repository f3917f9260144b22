/** Shows an API error where the admin acted: what went wrong and what to do, by status. */
import { useRef, type ReactNode } from 'react';
import { useFocusOnPageChange, usePageTitle } from '@/lib/page-title';
import { errorMessage, isApiError } from '@/lib/api-error';
import { isUnreadableAnswer } from '@/lib/unreadable-answer';
import { POLICY_REFUSED_TYPE } from '@/api/problem';
import { Button } from './ui/button';

export function describeError(error: unknown): { title: string; detail: string; hint?: string } {
  if (!isApiError(error)) return { title: 'Something went wrong', detail: errorMessage(error) };
  const detail = errorMessage(error);
  switch (error.status) {
    case 0:
      return {
        title: 'The console server cannot be reached',
        detail,
        hint: 'It retries on its own; check that `npm start` is still running.',
      };
    case 401:
      if ((error.problem as { reason?: unknown }).reason === 'ip_not_allowed')
        return {
          title: 'The IP access list locks the console out',
          detail,
          hint: "The API refuses the console's address, whatever its credential. Add the console's outgoing address to the IP access list from an address the list admits (Settings → IP access list says how to recover), then reload.",
        };
      return {
        title: 'The API credential was refused',
        detail,
        hint: 'Set AGENT_PLATFORM_API_KEY (a cog_ service-user credential) and AGENT_PLATFORM_BASE_URL in the environment or .env of the console server, then restart it. Unset both to use the embedded sandbox.',
      };
    case 403: {
      const perm = error.missingPermission;
      if (error.problem.type === POLICY_REFUSED_TYPE) {
        const org = (error.problem as { organization?: unknown }).organization;
        return {
          title:
            perm && perm !== 'admin'
              ? `Your console role does not allow ${perm}`
              : 'Your console role does not allow this',
          detail,
          hint: `The console's policy refused it${typeof org === 'string' ? ` in organization ${org}` : ''}, not the API. Ask whoever runs the console to grant you a role with this permission in CONSOLE_POLICY_FILE.`,
        };
      }
      return {
        title: perm ? `Missing permission: ${perm}` : 'Permission denied',
        detail,
        hint: perm
          ? `Ask an enterprise admin to grant the ${perm} permission to the role of the console's service user.`
          : undefined,
      };
    }
    case 404:
      return { title: 'Not found', detail };
    case 409:
      return { title: 'Conflict', detail };
    case 422:
      return {
        title: 'The request was refused',
        detail:
          error.fieldErrors.length > 0
            ? error.fieldErrors
                .map((f) => `${f.loc.filter((p) => p !== 'body' && p !== 'query').join('.')}: ${f.msg}`)
                .join('; ')
            : detail,
      };
    case 429:
      return {
        title: 'Rate limited',
        detail,
        hint: error.retryAfter !== undefined ? `Try again in ${error.retryAfter} s.` : 'Try again shortly.',
      };
    case 502:
      // The API answered, but with something the console cannot read: not an outage, and a retry gets the same.
      if (isUnreadableAnswer(error.status, error.problem)) {
        return {
          title: 'The API answered something the console could not read',
          detail,
          hint: 'The API is reachable, but this answer does not have the shape the console relies on, so nothing was read from it or changed. Retrying gets the same answer until the API’s answer changes; `npm run doctor` checks each answer against the contract.',
        };
      }
      return {
        title: 'The Agent Platform API is unavailable',
        detail,
        hint: 'The console retries on its own when the API is back.',
      };
    case 503:
    case 504:
      return {
        title: 'The Agent Platform API is unavailable',
        detail,
        hint: 'The console retries on its own when the API is back.',
      };
    default:
      return { title: `Error ${error.status}`, detail };
  }
}

export function ProblemView({
  error,
  onRetry,
  children,
  compact,
  page,
}: {
  error: unknown;
  onRetry?: () => void;
  children?: ReactNode;
  compact?: boolean;
  /** The error is the whole page: its title is the page's heading (and the tab's title). */
  page?: boolean;
}) {
  const { title, detail, hint } = describeError(error);
  return (
    <div role="alert" className={`rounded-lg border border-danger/40 bg-danger/5 ${compact ? 'p-3' : 'p-4'} text-sm`}>
      {page ? <PageHeading title={title} /> : <p className="font-semibold text-danger">{title}</p>}
      <p className="mt-1 break-words text-fg">{detail}</p>
      {hint && <p className="mt-1 text-muted">{hint}</p>}
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

function PageHeading({ title }: { title: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  usePageTitle(title);
  useFocusOnPageChange(heading);
  return (
    <h1 ref={heading} tabIndex={-1} className="text-base font-semibold text-danger outline-none">
      {title}
    </h1>
  );
}
