/**
 * The enterprise IP access list (spec: further operations, `ManageEnterpriseSettings`; shapes from the vendor
 * reference: IpAccessListResponse, IpAccessListAddRequest, IpAccessListReplaceRequest). Every operation answers
 * with the whole list, `{ip_ranges: string[]}`.
 *
 * Entries are IPv4/IPv6 addresses or CIDR ranges (see `../ip-ranges`). The API stores each entry as given
 * (trimmed) once it is valid; two entries that normalize to the same range count as duplicates. An empty list
 * means "no restriction"; while the list is not empty, requests from addresses outside it answer 401.
 */
import { z } from 'zod';
import { IP_RANGE_MAX_LENGTH, parseIpRange } from '../ip-ranges';
import { defineOperations } from './define';

/** Size of the list (the console's choice: the spec and the reference show none). */
export const IP_ACCESS_LIST_LIMITS = { entries: 1_000, entryLength: IP_RANGE_MAX_LENGTH } as const;

/** One entry: an address or a CIDR range, trimmed; the error names the entry and what is wrong with it. */
export const IpRangeEntry = z
  .string({ message: 'each entry is a string: an IP address or a CIDR range' })
  .transform((s) => s.trim())
  .superRefine((s, ctx) => {
    const r = parseIpRange(s);
    if (!r.ok) ctx.addIssue({ code: 'custom', message: r.error, input: s });
  });

export const IpRanges = z
  .array(IpRangeEntry, { message: 'ip_ranges is required: a list of IP addresses or CIDR ranges' })
  .max(IP_ACCESS_LIST_LIMITS.entries, `the IP access list holds at most ${IP_ACCESS_LIST_LIMITS.entries} entries`);

export const IpAccessListBody = z.strictObject({ ip_ranges: IpRanges });
export type IpAccessListBody = z.input<typeof IpAccessListBody>;

export const IpAccessList = z.looseObject({ ip_ranges: z.array(z.string()) });
export type IpAccessList = z.infer<typeof IpAccessList>;

const PATH = '/v3/enterprise/ip-access-list';

export const ipAccessListOperations = defineOperations({
  'ipAccessList.get': {
    id: 'ipAccessList.get',
    method: 'GET',
    path: PATH,
    permission: 'ManageEnterpriseSettings',
    scope: 'enterprise',
    summary: "The enterprise's IP access list (empty: requests from any address are accepted)",
    response: IpAccessList,
  },
  'ipAccessList.replace': {
    id: 'ipAccessList.replace',
    method: 'PUT',
    path: PATH,
    permission: 'ManageEnterpriseSettings',
    scope: 'enterprise',
    summary: `Replace the whole IP access list (at most ${IP_ACCESS_LIST_LIMITS.entries} addresses or CIDR ranges)`,
    body: IpAccessListBody,
    response: IpAccessList,
    note: `Entries are stored as given (trimmed) after validation; entries that normalize to the same range are kept once (the first). At most ${IP_ACCESS_LIST_LIMITS.entries} entries (console's choice). The sandbox does not refuse a list that leaves out the caller: recover with --reset-ip-access-list.`,
  },
  'ipAccessList.append': {
    id: 'ipAccessList.append',
    method: 'POST',
    path: PATH,
    permission: 'ManageEnterpriseSettings',
    scope: 'enterprise',
    summary: 'Add addresses or CIDR ranges to the IP access list, merging with it (no duplicates)',
    body: IpAccessListBody,
    response: IpAccessList,
    note: `An entry equal after normalization to one already listed is not added again. 422 when the merged list would exceed ${IP_ACCESS_LIST_LIMITS.entries} entries.`,
  },
  'ipAccessList.clear': {
    id: 'ipAccessList.clear',
    method: 'DELETE',
    path: PATH,
    permission: 'ManageEnterpriseSettings',
    scope: 'enterprise',
    summary: 'Clear the IP access list: requests from any address are accepted again',
    response: IpAccessList,
  },
});
