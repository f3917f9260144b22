/** The name of the person signed in (given at sign-in), shown in the header beside Sign out. */
import { useQuery } from '@tanstack/react-query';
import { UserRound } from 'lucide-react';
import { consoleSessionQueryOptions } from '@/lib/console-session';

export function SignedInAs({ enabled }: { enabled: boolean }) {
  const session = useQuery({ ...consoleSessionQueryOptions(), enabled });
  const name = enabled ? session.data?.name : null;
  if (!name) return null;
  return (
    <span
      className="hidden max-w-48 items-center gap-1.5 text-sm text-muted sm:inline-flex"
      title={`Signed in as ${name}: the history shows this name beside each change you make`}
      data-testid="signed-in-as"
    >
      <UserRound className="size-4 shrink-0" aria-hidden />
      <span className="truncate">
        <span className="sr-only">Signed in as </span>
        {name}
      </span>
    </span>
  );
}
