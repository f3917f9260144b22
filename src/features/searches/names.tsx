/**
 * Names beside the ids a search record carries: its organization and user, each read once (and cached) by id;
 * without the permission to read it, or while it loads, the id stands alone.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';
import { organizationQueryOptions } from '@/lib/organizations';

const NAME_STALE_MS = 10 * 60_000;

const userNameQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['searches', 'names', 'user', userId] as const,
    queryFn: async ({ signal }) => {
      const u = await apiCall('members.users.get', { params: { user_id: userId }, signal });
      return u.name && u.email ? `${u.name} (${u.email})` : (u.name ?? u.email ?? null);
    },
    staleTime: NAME_STALE_MS,
    retry: false,
  });

/** A name with its id beside it on one line (a table cell cuts it with an ellipsis), or the id alone. */
function NamedId({ name, id }: { name: string | null | undefined; id: string }) {
  return (
    <>
      {name && <span>{name} </span>}
      <span className="font-mono text-xs text-muted">{id}</span>
    </>
  );
}

export function OrgName({ orgId }: { orgId: string }) {
  const { data } = useQuery({ ...organizationQueryOptions(orgId), retry: false });
  return <NamedId name={data?.name} id={orgId} />;
}

export function UserName({ userId }: { userId: string }) {
  const { data } = useQuery(userNameQueryOptions(userId));
  return <NamedId name={data} id={userId} />;
}
