/** One organization: its details and the areas an admin manages in it. */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PageHeader } from '@/components/page-header';
import { formatDateTime, formatNumber } from '@/lib/format';
import { organizationNav } from '@/lib/nav';
import { organizationQueryOptions } from '@/lib/organizations';
import { CopyId } from '@/components/copy-id';
import { SettingsHistory } from './settings-history';

export function OrganizationOverview({ orgId }: { orgId: string }) {
  const { data: org } = useSuspenseQuery(organizationQueryOptions(orgId));
  const areas = organizationNav(orgId).filter((n) => !n.exact);
  return (
    <>
      <PageHeader title={org.name} description={<CopyId value={org.org_id} label="organization id" />} />
      <dl className="grid max-w-3xl grid-cols-1 gap-x-6 gap-y-3 rounded-lg border border-line bg-surface p-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted">Created</dt>
          <dd>{formatDateTime(org.created_at)}</dd>
        </div>
        <div>
          <dt className="text-muted">Updated</dt>
          <dd>{formatDateTime(org.updated_at)}</dd>
        </div>
        <div>
          <dt className="text-muted">ACU limit per billing cycle</dt>
          <dd>{org.max_cycle_acu_limit != null ? formatNumber(org.max_cycle_acu_limit) : 'No limit'}</dd>
        </div>
        <div>
          <dt className="text-muted">ACU limit per session</dt>
          <dd>{org.max_session_acu_limit != null ? formatNumber(org.max_session_acu_limit) : 'No limit'}</dd>
        </div>
      </dl>
      {areas.length > 0 && (
        <ul className="mt-6 grid max-w-3xl grid-cols-1 gap-3 sm:grid-cols-2">
          {areas.map((a) => (
            <li key={a.label}>
              <Link
                to={a.to}
                params={a.params}
                className="block rounded-lg border border-line bg-surface p-4 font-medium hover:border-accent"
              >
                {a.label}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-8">
        <SettingsHistory
          title="History of this organization"
          description="Its name, ACU limits and session tags as changed through this console, newest first, with who made each change. A change made elsewhere shows as “Changed outside the console”. Restore brings back the value before or after an entry."
          filter={{ kind: ['organization', 'acu-limit', 'org-tags'], key: orgId }}
        />
      </div>
    </>
  );
}
