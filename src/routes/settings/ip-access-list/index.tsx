import { createFileRoute } from '@tanstack/react-router';
import { ipAccessListQueryOptions } from '@/features/ip-access-list/api';
import { IpAccessListScreen } from '@/features/ip-access-list/ip-access-list-screen';

export const Route = createFileRoute('/settings/ip-access-list/')({
  loader: ({ context }) => void context.queryClient.query(ipAccessListQueryOptions()).catch(() => undefined),
  component: IpAccessListScreen,
});
