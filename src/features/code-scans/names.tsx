/**
 * Names beside the ids a finding carries: its organization (read once by id, cached) and its scan (the scan's
 * repository and when it ran, from the scans list). While loading, or without them, the id stands alone.
 */
import { useQuery } from '@tanstack/react-query';
import { formatDateTime } from '@/lib/format';
import { NamedId } from '@/components/named-id';
import { scansQueryOptions } from './api';

export { OrgName } from '@/components/named-id';

/** A scan has no name: it is called by its repository and when it ran ("acme/api, Nov 20, 2026, 09:12"). */
export function ScanName({ scanId, repository }: { scanId: string; repository: string }) {
  const { data } = useQuery(scansQueryOptions());
  const scan = data?.find((s) => s.scan_id === scanId);
  return <NamedId name={scan ? `${scan.repository}, ${formatDateTime(scan.created_at)}` : repository} id={scanId} />;
}
