/**
 * Names beside the ids a search record carries (its organization and user), on one line as a table cell
 * shows them; the reading and caching are the shared `NamedId` pieces'.
 */
import { OrgName as SharedOrgName, UserName as SharedUserName } from '@/components/named-id';

export const OrgName = ({ orgId }: { orgId: string }) => <SharedOrgName orgId={orgId} oneLine />;
export const UserName = ({ userId }: { userId: string }) => <SharedUserName userId={userId} oneLine />;
