/**
 * The IP access list editor (enterprise settings). The admin edits the list as rows (checked and normalized as
 * they type), reviews what is added and removed, and applies it through the console's checked endpoint:
 * a list changed meanwhile answers 409 and the screen shows what changed; a list that no longer admits the
 * console's own addresses is refused unless the enterprise's name is typed; clearing the list asks for the
 * name too. When the console cannot tell its own address (a 422 `egress_unknown`), the admin types the list's
 * range that admits it, and the apply is sent again with it. The history (with restore) is one link away.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { History } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button, buttonClass } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { isApiError } from '@/lib/api-error';
import { ipAccessListQueryOptions } from './api';
import { Editor } from './editor';

export { DiffTable } from './diff-table';
export { footerReasons } from './editor';

const DESCRIPTION =
  'Addresses and CIDR ranges allowed to call the Agent Platform API for this enterprise. An empty list accepts every address.';

export function IpAccessListScreen() {
  const query = useQuery(ipAccessListQueryOptions());
  return (
    <div className="mx-auto flex max-w-4xl flex-col">
      <PageHeader
        title="IP access list"
        description={DESCRIPTION}
        actions={
          <Link to="/settings/ip-access-list/history" className={buttonClass()}>
            <History className="size-4" aria-hidden /> History
          </Link>
        }
      />
      {query.data ? (
        <Editor current={query.data} />
      ) : query.error ? (
        <LockedOutOrError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <div className="flex flex-col gap-2" aria-busy="true" aria-label="Loading the IP access list">
          {Array.from({ length: 5 }, (_, i) => (
            <Skeleton key={i} className="h-9 w-full" />
          ))}
        </div>
      )}
    </div>
  );
}

/** A 401 whose reason is the IP access list itself: the console is locked out, and this is how to recover. */
export function LockedOutOrError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const lockedOut =
    isApiError(error) && error.status === 401 && (error.problem as { reason?: unknown }).reason === 'ip_not_allowed';
  if (!lockedOut) return <ProblemView error={error} onRetry={onRetry} />;
  return (
    <div role="alert" className="rounded-lg border border-danger/40 bg-danger/5 p-4 text-sm">
      <p className="font-semibold text-danger">The IP access list locks the console out</p>
      <p className="mt-1">{isApiError(error) ? error.message : ''}</p>
      <p className="mt-2">
        The API refuses every request from the address the console uses. With the embedded sandbox, stop the console and
        run <code className="font-mono">npm start -- --reset-ip-access-list</code> (or{' '}
        <code className="font-mono">npm run sandbox -- --reset-ip-access-list</code>) with the same DATA_DIR: it clears
        the list. Against the real API, change the list from an address it admits, or ask support.
      </p>
      <Button className="mt-3" onClick={onRetry}>
        Retry
      </Button>
    </div>
  );
}
