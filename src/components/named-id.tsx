/**
 * Names beside the ids a record carries (an organization, a member), each read once by id and cached under one
 * key whichever screen asks; without the permission to read it, or while it loads, the id stands alone. Screens
 * with ids of their own (a scan, a playbook) give their name to `NamedId`.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';
import { organizationQueryOptions } from '@/lib/organizations';

export const NAME_STALE_MS = 10 * 60_000;
const NOT_A_MEMBER = 'not a member of the enterprise';

const userNameQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['names', 'user', userId] as const,
    queryFn: async ({ signal }) => {
      try {
        const u = await apiCall('members.users.get', { params: { user_id: userId }, signal });
        return u.name && u.email ? `${u.name} (${u.email})` : (u.name ?? u.email ?? null);
      } catch (err) {
        // No such member (any more): said, rather than an id left unexplained.
        if (isApiError(err) && err.status === 404) return NOT_A_MEMBER;
        throw err;
      }
    },
    staleTime: NAME_STALE_MS,
    retry: false,
  });

/**
 * A name with its id beside it, or the id alone. `oneLine`: in a table cell, which cuts it with an ellipsis;
 * otherwise it wraps anywhere (a long email never widens the page).
 */
export function NamedId({
  name,
  id,
  note,
  oneLine = false,
}: {
  name: string | null | undefined;
  id: string;
  note?: string;
  oneLine?: boolean;
}) {
  if (oneLine)
    return (
      <>
        {name && <span>{name} </span>}
        <span className="font-mono text-xs text-muted">{id}</span>
        {note && <span className="text-xs text-muted"> ({note})</span>}
      </>
    );
  return (
    <span className="inline-flex min-w-0 flex-wrap items-baseline gap-x-1.5">
      {name && <span className="min-w-0 [overflow-wrap:anywhere]">{name}</span>}
      <span className="font-mono text-xs break-all text-muted">{id}</span>
      {note && <span className="text-xs text-muted">({note})</span>}
    </span>
  );
}

export function OrgName({ orgId, oneLine }: { orgId: string; oneLine?: boolean }) {
  const { data } = useQuery({ ...organizationQueryOptions(orgId), retry: false });
  return <NamedId name={data?.name} id={orgId} oneLine={oneLine} />;
}

export function UserName({ userId, oneLine }: { userId: string; oneLine?: boolean }) {
  const { data } = useQuery(userNameQueryOptions(userId));
  if (data === NOT_A_MEMBER) return <NamedId name={null} id={userId} note={data} oneLine={oneLine} />;
  return <NamedId name={data} id={userId} oneLine={oneLine} />;
}
