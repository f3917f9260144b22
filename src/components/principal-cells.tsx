/**
 * The cells every table of members and service users begins with: the name with its email (a member) or id (a
 * service user) beneath it, and a badge saying which of the two it is. Shared by the screens that list both
 * kinds side by side (consumption per person, stale access), so they read alike.
 */
import { Badge } from './badge';

export function PrincipalNameCell({ name, secondary }: { name: string; secondary: string | null }) {
  return (
    <div className="min-w-0">
      <div className="truncate font-medium">{name}</div>
      {secondary && <div className="truncate font-mono text-xs text-muted">{secondary}</div>}
    </div>
  );
}

export function PrincipalKindBadge({ kind }: { kind: 'member' | 'service_user' }) {
  return <Badge tone={kind === 'member' ? 'info' : 'neutral'}>{kind === 'member' ? 'Member' : 'Service user'}</Badge>;
}
