import { createFileRoute } from '@tanstack/react-router';
import { allOrganizationsQueryOptions } from '@/features/limits/api';
import { LimitsScreen } from '@/features/limits/limits-screen';
import { acuLimitsQueryOptions, orgGroupLimitsQueryOptions } from '@/lib/enterprise-limits';

export const Route = createFileRoute('/settings/limits')({
  loader: ({ context }) => {
    void context.queryClient.query(acuLimitsQueryOptions()).catch(() => undefined);
    void context.queryClient.query(allOrganizationsQueryOptions()).catch(() => undefined);
    void context.queryClient.query(orgGroupLimitsQueryOptions()).catch(() => undefined);
  },
  component: LimitsScreen,
});
