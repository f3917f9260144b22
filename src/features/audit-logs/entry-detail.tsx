/** One audit-log entry in a side panel: who, what, when (local and UTC), and its `data` as collapsible JSON. */
import { X } from 'lucide-react';
import type { ReactNode } from 'react';
import type { AuditLogEntry } from '@/api/operations/audit-logs';
import { Badge } from '@/components/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime, formatUtc } from '@/lib/format';
import { JsonTree } from './json-tree';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[8rem_1fr] gap-2 border-b border-line/60 py-1.5 text-sm">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

const Id = ({ children }: { children: ReactNode }) => <span className="font-mono text-xs text-muted">{children}</span>;

export function EntryDetail({
  entry,
  orgName,
  onClose,
  onFilterPrincipal,
}: {
  entry: AuditLogEntry | null;
  orgName: (orgId: string) => string | undefined;
  onClose: () => void;
  onFilterPrincipal: (p: { service_user_id?: string; user_id?: string }) => void;
}) {
  return (
    <Dialog open={entry !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent side="right">
        {entry && (
          <>
            <div className="flex items-start justify-between gap-3 border-b border-line p-4">
              <div className="min-w-0">
                <DialogTitle>Audit-log entry</DialogTitle>
                <DialogDescription>
                  <Badge tone="accent">{entry.action}</Badge> at {formatDateTime(entry.created_at)}
                </DialogDescription>
              </div>
              <DialogClose asChild>
                <Button variant="ghost" size="sm" aria-label="Close entry">
                  <X className="size-4" aria-hidden />
                </Button>
              </DialogClose>
            </div>
            <div className="flex-1 overflow-y-auto p-4">
              <dl>
                <Row label="Action">
                  <span className="font-mono">{entry.action}</span>
                </Row>
                <Row label="Time (local)">{formatDateTime(entry.created_at)}</Row>
                <Row label="Time (UTC)">
                  {formatUtc(entry.created_at)} <Id>({entry.created_at})</Id>
                </Row>
                <Row label="Organization">
                  {entry.org_id ? (
                    <>
                      {orgName(entry.org_id) ?? 'Unknown organization'} <Id>{entry.org_id}</Id>
                    </>
                  ) : (
                    'Enterprise-wide'
                  )}
                </Row>
                <Row label="Service user">
                  {entry.service_user_id ? (
                    <span className="flex flex-wrap items-center gap-2">
                      {entry.service_user_name || 'Unnamed'} <Id>{entry.service_user_id}</Id>
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => onFilterPrincipal({ service_user_id: entry.service_user_id! })}
                      >
                        Only this service user
                      </Button>
                    </span>
                  ) : (
                    <span className="text-muted">None</span>
                  )}
                </Row>
                <Row label="User">
                  {entry.user_id ? (
                    <span className="flex flex-wrap items-center gap-2">
                      {entry.user_email || 'No email'} <Id>{entry.user_id}</Id>
                      <Button size="sm" variant="ghost" onClick={() => onFilterPrincipal({ user_id: entry.user_id! })}>
                        Only this user
                      </Button>
                    </span>
                  ) : (
                    <span className="text-muted">None</span>
                  )}
                </Row>
                <Row label="Entry id">
                  <Id>{entry.audit_log_id}</Id>
                </Row>
              </dl>
              <h3 className="mt-4 mb-2 text-sm font-semibold">Data</h3>
              <JsonTree value={entry.data ?? {}} />
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
