/**
 * The person signed in (from single sign-on, or the name given at sign-in) and their console roles, shown in
 * the header beside Sign out; the email, groups and the grants that gave each role are in its title.
 */
import { useQuery } from '@tanstack/react-query';
import { UserRound } from 'lucide-react';
import { consoleSessionQueryOptions } from '@/lib/console-session';

export function SignedInAs({ enabled }: { enabled: boolean }) {
  const session = useQuery({ ...consoleSessionQueryOptions(), enabled });
  const data = enabled ? session.data : undefined;
  const name = data?.name ?? data?.email ?? null;
  if (!name) return null;
  const roles = data?.roles ?? [];
  const roleText = roles.map((r) => r.role).join(', ');
  const title = [
    `Signed in as ${name}${data?.email && data.email !== name ? ` (${data.email})` : ''}: the history and Console activity show this name beside each change you make`,
    roles.length ? `Console roles: ${roles.map((r) => `${r.role} (${r.grant})`).join('; ')}` : null,
    data?.groups?.length ? `Groups: ${data.groups.join(', ')}` : null,
  ]
    .filter(Boolean)
    .join('\n');
  return (
    <span
      className="hidden max-w-64 items-center gap-1.5 text-sm text-muted sm:inline-flex"
      title={title}
      data-testid="signed-in-as"
    >
      <UserRound className="size-4 shrink-0" aria-hidden />
      <span className="truncate">
        <span className="sr-only">Signed in as </span>
        {name}
        {roleText && data?.policy_file ? (
          <span data-testid="signed-in-roles">
            <span aria-hidden> · </span>
            <span className="sr-only">, console role </span>
            {roleText}
          </span>
        ) : null}
      </span>
    </span>
  );
}
