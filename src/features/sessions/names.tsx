/**
 * Names beside the ids a session carries: its organization, user and service user. Each is read once (and
 * cached) by id; without the permission to read it, or while it loads, the id stands alone.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';
import { organizationQueryOptions } from '@/lib/organizations';

const NAME_STALE_MS = 10 * 60_000;
const NOT_A_MEMBER = 'not a member of the enterprise';

const userNameQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['sessions', 'names', 'user', userId] as const,
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

const serviceUserNameQueryOptions = (serviceUserId: string) =>
  queryOptions({
    queryKey: ['sessions', 'names', 'service-user', serviceUserId] as const,
    queryFn: async ({ signal }) =>
      (await apiCall('serviceUsers.get', { params: { service_user_id: serviceUserId }, signal })).name,
    staleTime: NAME_STALE_MS,
    retry: false,
  });

/** A name with its id beside it, or the id alone. */
export function NamedId({ name, id, note }: { name: string | null | undefined; id: string; note?: string }) {
  return (
    <span className="inline-flex min-w-0 flex-wrap items-baseline gap-x-1.5">
      {name && <span className="min-w-0 [overflow-wrap:anywhere]">{name}</span>}
      <span className="font-mono text-xs break-all text-muted">{id}</span>
      {note && <span className="text-xs text-muted">({note})</span>}
    </span>
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

export function ServiceUserName({ serviceUserId }: { serviceUserId: string }) {
  const { data } = useQuery(serviceUserNameQueryOptions(serviceUserId));
  return <NamedId name={data} id={serviceUserId} />;
}

const playbookTitleQueryOptions = (orgId: string, playbookId: string) =>
  queryOptions({
    queryKey: ['sessions', 'names', 'playbook', orgId, playbookId] as const,
    queryFn: async ({ signal }) =>
      (await apiCall('playbooks.get', { params: { org_id: orgId, playbook_id: playbookId }, signal })).title,
    staleTime: NAME_STALE_MS,
    retry: false,
  });

export function PlaybookName({ orgId, playbookId }: { orgId: string; playbookId: string }) {
  const { data } = useQuery(playbookTitleQueryOptions(orgId, playbookId));
  return <NamedId name={data} id={playbookId} />;
}
