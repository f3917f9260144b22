/**
 * Names beside the ids a finding carries: its organization (read once by id, cached) and its scan (the scan's
 * repository and when it ran, from the scans list). While loading, or without them, the id stands alone.
 */
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@/lib/format';
import { organizationQueryOptions } from '@/lib/organizations';
import { scansQueryOptions } from './api';

function NamedId({ name, id }: { name: string | null | undefined; id: string }) {
  return (
    <span className="inline-flex min-w-0 flex-wrap items-baseline gap-x-1.5">
      {name && <span className="min-w-0 [overflow-wrap:anywhere]">{name}</span>}
      <span className="font-mono text-xs break-all text-muted">{id}</span>
    </span>
  );
}

export function OrgName({ orgId }: { orgId: string }) {
  const { data } = useQuery({ ...organizationQueryOptions(orgId), retry: false });
  return <NamedId name={data?.name} id={orgId} />;
}

/** A scan has no name: it is called by its repository and when it ran ("acme/api, Nov 20, 2026, 09:12"). */
export function ScanName({ scanId, repository }: { scanId: string; repository: string }) {
  const { data } = useQuery(scansQueryOptions());
  const scan = data?.find((s) => s.scan_id === scanId);
  return <NamedId name={scan ? `${scan.repository}, ${formatDateTime(scan.created_at)}` : repository} id={scanId} />;
}
