/**
 * Names beside the ids a session carries: its organization and user (the shared pieces), its service user and
 * its playbook. Each is read once (and cached) by id; without the permission to read it, or while it loads, the
 * id stands alone.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { NAME_STALE_MS, NamedId } from '@/components/named-id';
import { apiCall } from '@/lib/api-client';

export { NamedId, OrgName, UserName } from '@/components/named-id';

const serviceUserNameQueryOptions = (serviceUserId: string) =>
  queryOptions({
    queryKey: ['sessions', 'names', 'service-user', serviceUserId] as const,
    queryFn: async ({ signal }) =>
      (await apiCall('serviceUsers.get', { params: { service_user_id: serviceUserId }, signal })).name,
    staleTime: NAME_STALE_MS,
    retry: false,
  });

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
