import { createFileRoute } from '@tanstack/react-router';
import { allOrganizationsQueryOptions } from '@/features/limits/api';
import { LimitsScreen } from '@/features/limits/limits-screen';
import { SettingsHistory } from '@/features/organizations/settings-history';
import { acuLimitsQueryOptions, orgGroupLimitsQueryOptions } from '@/lib/enterprise-limits';

export const Route = createFileRoute('/settings/limits')({
  loader: ({ context }) => {
    void context.queryClient.query(acuLimitsQueryOptions()).catch(() => undefined);
    void context.queryClient.query(allOrganizationsQueryOptions()).catch(() => undefined);
    void context.queryClient.query(orgGroupLimitsQueryOptions()).catch(() => undefined);
  },
  component: function LimitsRoute() {
    return (
      <LimitsScreen
        history={<SettingsHistory title="History of limits" filter={{ kind: ['acu-limit', 'org-group-limits'] }} />}
      />
    );
  },
});
