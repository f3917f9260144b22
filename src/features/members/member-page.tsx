/**
 * One member's page. In an organization (`orgId`) it is the spec's organization member read
 * (`members.organization.users.get`: a member there, directly or through an IdP group; 404 for anyone else);
 * enterprise-wide it is the enterprise's user read. It shows who the member is, its direct roles (enterprise
 * role and each organization's, by name), the roles it gets through IdP groups, and its groups; each
 * organization it belongs to links to its page there. The history of its roles is composed by the route.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import type { User } from '@/api/operations/members';
import { Badge } from '@/components/badge';
import { CopyId } from '@/components/copy-id';
import { PageHeader, Spinner } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { buttonClass } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { memberQueryOptions } from './member-search';
import { assignmentText, useOrganizations } from './shared';

/** The page's search: the organization it is read in (absent: enterprise-wide). */
const who = (u: Pick<User, 'email' | 'name'>) => u.email ?? u.name ?? 'Member without an address';

export function MemberPage({ userId, orgId, history }: { userId: string; orgId?: string; history?: ReactNode }) {
  const member = useQuery(memberQueryOptions(userId, orgId));
  const orgs = useOrganizations();
  const where = orgId ? orgs.name(orgId) : null;
  const back = orgId ? (
    <Link to="/orgs/$orgId/members" params={{ orgId }} className={buttonClass()}>
      <ArrowLeft className="size-4" aria-hidden /> Members of {where}
    </Link>
  ) : (
    <Link to="/members" className={buttonClass()}>
      <ArrowLeft className="size-4" aria-hidden /> Members
    </Link>
  );
  if (member.error) {
    return (
      <>
        <PageHeader title={where ? `Member of ${where}` : 'Member'} actions={back} />
        <ProblemView error={member.error} onRetry={() => void member.refetch()} />
      </>
    );
  }
  if (!member.data) return <Spinner label="Loading the member…" />;
  const u = member.data;
  const direct = u.role_assignments;
  const enterpriseRole = direct.find((a) => !a.org_id);
  const orgRoles = direct.filter((a) => a.org_id && (!orgId || a.org_id === orgId));
  const idp = (u.idp_role_assignments ?? []).filter((a) => !orgId || !a.org_id || a.org_id === orgId);
  const memberOf = [
    ...new Set([...direct, ...(u.idp_role_assignments ?? [])].flatMap((a) => (a.org_id ? [a.org_id] : []))),
  ];
  return (
    <>
      <PageHeader
        title={who(u)}
        description={where ? `Member of ${where}` : 'Member of the enterprise'}
        actions={back}
      />
      <dl className="grid max-w-3xl grid-cols-1 gap-x-6 gap-y-3 rounded-lg border border-line bg-surface p-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted">Email address</dt>
          <dd className="break-words">{u.email ?? '—'}</dd>
        </div>
        <div>
          <dt className="text-muted">Name</dt>
          <dd className="break-words">{u.name ?? 'Not signed in yet'}</dd>
        </div>
        <div>
          <dt className="text-muted">User id</dt>
          <dd className="break-all">
            <CopyId value={u.user_id} label={`user id of ${who(u)}`} />
          </dd>
        </div>
        {u.created_at !== undefined && (
          <div>
            <dt className="text-muted">Joined or invited</dt>
            <dd>{formatDateTime(u.created_at)}</dd>
          </div>
        )}
        <div>
          <dt className="text-muted">Enterprise role</dt>
          <dd>{enterpriseRole ? <Badge tone="accent">{enterpriseRole.role.role_name}</Badge> : 'None'}</dd>
        </div>
        <div>
          <dt className="text-muted">{orgId ? `Direct role in ${where}` : 'Organization roles'}</dt>
          <dd className="flex flex-wrap gap-1">
            {orgRoles.length === 0
              ? 'None'
              : orgRoles.map((a) => (
                  <Badge key={`${a.org_id}:${a.role.role_id}`}>{assignmentText(a, orgs.name)}</Badge>
                ))}
          </dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-muted">Roles through IdP groups</dt>
          <dd>
            {idp.length === 0 ? (
              'None'
            ) : (
              <ul className="flex flex-col gap-0.5">
                {idp.map((a, i) => (
                  <li key={i}>
                    {assignmentText(a, orgs.name)}{' '}
                    <span className="text-muted">through the IdP group {a.idp_group_name}</span>
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </div>
        {u.idp_group_names && u.idp_group_names.length > 0 && (
          <div className="sm:col-span-2">
            <dt className="text-muted">IdP groups</dt>
            <dd className="break-words">{[...u.idp_group_names].sort().join(', ')}</dd>
          </div>
        )}
      </dl>
      {memberOf.length > 0 && (
        <section aria-labelledby="member-orgs" className="mt-6 max-w-3xl">
          <h2 id="member-orgs" className="text-base font-semibold">
            Organizations
          </h2>
          <ul className="mt-2 flex flex-wrap gap-2">
            {memberOf
              .map((id) => ({ id, name: orgs.name(id) }))
              .sort((a, b) => a.name.localeCompare(b.name))
              .map(({ id, name }) => (
                <li key={id}>
                  <Link
                    to="/members/$userId"
                    params={{ userId: u.user_id }}
                    search={{ org: id }}
                    className="text-accent underline underline-offset-2 hover:no-underline"
                    aria-current={id === orgId ? 'page' : undefined}
                  >
                    {name}
                  </Link>
                </li>
              ))}
          </ul>
        </section>
      )}
      {history && <div className="mt-8">{history}</div>}
    </>
  );
}
