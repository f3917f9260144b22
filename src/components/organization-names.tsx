/**
 * The enterprise's organizations by name, for the screens that list records of many organizations: one hook
 * that reads them (every page, cached under the shared organizations key) and the Organization column that
 * shows a record's organization by name, or by its id while the names load or when it is not among them.
 */
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { columnHelper } from './data-table';

/** The organizations in the order the API lists them, and their names by id. `enabled: false` reads none. */
export function useOrganizationNames({ enabled = true }: { enabled?: boolean } = {}) {
  const orgs = useInfiniteQuery({ ...organizationsInfiniteQueryOptions(), enabled });
  const organizations = useMemo(() => orgs.data?.pages.flatMap((p) => p.items) ?? [], [orgs.data]);
  const names = useMemo(
    () => new Map(organizations.map((o) => [o.org_id, o.name])) as ReadonlyMap<string, string>,
    [organizations],
  );
  return { organizations, names };
}

/** The Organization column of a list whose rows carry an `org_id`: `organizationColumn<Row>(names)`. */
export function organizationColumn<T extends { org_id: string }>(names: ReadonlyMap<string, string>) {
  return columnHelper<T>().accessor((r) => names.get(r.org_id) ?? r.org_id, {
    id: 'organization',
    header: 'Organization',
    meta: { width: 'minmax(8rem,1fr)', className: 'truncate text-xs' },
  });
}
