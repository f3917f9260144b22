/**
 * The members screen's two lists (members with a role, and on an organization those who belong through IdP
 * groups) with the filters that narrow the loaded rows in the browser, and the CSV export of what matches.
 * A whole address is looked up by the API; any other filter reads every page of the list shown.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { IdpUser, User } from '@/api/operations/members';
import { downloadText } from '@/lib/download';
import { membersInfiniteQueryOptions, orgIdpUsersInfiniteQueryOptions, type MembersScope } from './api';
import { csvFileName, idpUsersCsv, membersCsv } from './export';
import type { MembersScreenSearch } from './members-filters';
import { apiEmail, filtersInBrowser, memberMatches } from './search';
import { loadEveryPage, useLoadAll, type OrgDirectory } from './shared';

export function useMembersLists(scope: MembersScope, search: MembersScreenSearch, orgs: OrgDirectory) {
  const orgId = scope.kind === 'org' ? scope.orgId : undefined;
  const via = orgId ? (search.via ?? 'direct') : 'direct';
  const email = apiEmail(search);
  const inBrowser = filtersInBrowser(search);
  const members = useInfiniteQuery({ ...membersInfiniteQueryOptions(scope, email), enabled: via === 'direct' });
  const idpUsers = useInfiniteQuery({
    ...orgIdpUsersInfiniteQueryOptions(orgId ?? '', email),
    enabled: !!orgId && via === 'idp',
  });
  useLoadAll(members, inBrowser && via === 'direct');
  useLoadAll(idpUsers, inBrowser && via === 'idp');

  const filter = useMemo(() => (inBrowser ? (u: User) => memberMatches(u, search) : undefined), [inBrowser, search]);
  const idpFilter = useMemo(
    () =>
      inBrowser
        ? (u: IdpUser) =>
            memberMatches({ ...u, role_assignments: [], idp_role_assignments: u.idp_role_assignments }, search)
        : undefined,
    [inBrowser, search],
  );

  const [exportError, setExportError] = useState<unknown>(null);
  async function exportCsv() {
    setExportError(null);
    try {
      if (via === 'idp') {
        const rows = await loadEveryPage<IdpUser>(idpUsers);
        const kept = idpFilter ? rows.filter(idpFilter) : rows;
        downloadText(csvFileName(`members-${orgId}-idp`), idpUsersCsv(kept, orgs.name));
      } else {
        const rows = await loadEveryPage<User>(members);
        const kept = filter ? rows.filter(filter) : rows;
        downloadText(csvFileName(orgId ? `members-${orgId}` : 'members'), membersCsv(kept, orgs.name));
      }
    } catch (error) {
      setExportError(error);
    }
  }

  /** The list shown, while a browser filter reads its every page. */
  const reading = inBrowser ? (via === 'direct' ? members : idpUsers) : null;
  return { orgId, via, members, idpUsers, filter, idpFilter, reading, exportCsv, exportError };
}
