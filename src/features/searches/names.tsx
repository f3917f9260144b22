/**
 * Names beside the ids a search record carries: its organization and user, each read once (and cached) by id;
 * without the permission to read it, or while it loads, the id stands alone.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';
import { organizationQueryOptions } from '@/lib/organizations';

const NAME_STALE_MS = 10 * 60_000;
const NOT_A_MEMBER = 'not a member of the enterprise';

const userNameQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['searches', 'names', 'user', userId] as const,
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

/** A name with its id beside it on one line (a table cell cuts it with an ellipsis), or the id alone. */
function NamedId({ name, id, note }: { name: string | null | undefined; id: string; note?: string }) {
  return (
    <>
      {name && <span>{name} </span>}
      <span className="font-mono text-xs text-muted">{id}</span>
      {note && <span className="text-xs text-muted"> ({note})</span>}
    </>
  );
}

export function OrgName({ orgId }: { orgId: string }) {
  const { data } = useQuery({ ...organizationQueryOptions(orgId), retry: false });
  return <NamedId name={data?.name} id={orgId} />;
}

export function UserName({ userId }: { userId: string }) {
  const { data } = useQuery(userNameQueryOptions(userId));
  if (data === NOT_A_MEMBER) return <NamedId name={null} id={userId} note={data} />;
  return <NamedId name={data} id={userId} />;
}
