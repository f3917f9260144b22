/**
 * Bulk actions on the sessions list: archive, terminate or tag the selected sessions. The toolbar shows with
 * the first selection; the confirmation that lists the sessions and then follows each one's progress is
 * `bulk-dialog.tsx`, loaded when an action is first pointed at, focused or chosen. Each action needs
 * ManageOrgSessions in every selected session's organization, from the console's credential and the person's
 * console roles: when either refuses, the actions are disabled and the toolbar says why, naming the
 * organizations (a bulk action that would fail for some of its sessions is not offered).
 */
import { lazy, Suspense, useId, useMemo, useState } from 'react';
import type { Session } from '@/api/operations/sessions';
import { useOrganizationNames } from '@/components/organization-names';
import { Button } from '@/components/ui/button';
import { formatNumber } from '@/lib/format';
import { usePermissionCheck } from '@/lib/principal';

/** Most sessions one bulk action takes. */
export const BULK_MAX = 100;

export type BulkKind = 'archive' | 'terminate' | 'tag';

const loadDialog = () => import('./bulk-dialog');
const preloadDialog = () => void loadDialog().catch(() => undefined);
const BulkDialog = lazy(loadDialog);

/** The most organizations a refusal names; the rest are counted. */
const NAMED_ORGS = 3;
const listFormat = new Intl.ListFormat('en', { type: 'conjunction' });

/**
 * Why the selected sessions cannot be acted on, or undefined when they can (or neither check is known yet: the
 * server decides). The person's roles are judged per organization; the credential's permission once.
 */
function useBulkRefusal(selected: readonly Session[]): string | undefined {
  const check = usePermissionCheck();
  const { names } = useOrganizationNames({ enabled: selected.length > 0 });
  const orgIds = useMemo(() => [...new Set(selected.map((s) => s.org_id))], [selected]);
  const verdicts = orgIds.map((org) => ({ org, verdict: check('ManageOrgSessions', org) }));
  const byCredential = verdicts.find((v) => v.verdict.refusedBy === 'credential');
  if (byCredential) return byCredential.verdict.reason;
  const refused = verdicts.filter((v) => v.verdict.refusedBy === 'role').map((v) => names.get(v.org) ?? v.org);
  if (refused.length === 0) return undefined;
  const named = refused.slice(0, NAMED_ORGS);
  const more = refused.length - named.length;
  const where = more > 0 ? `${named.join(', ')} and ${formatNumber(more)} more` : listFormat.format(named);
  const org = refused.length === 1 ? 'organization' : 'organizations';
  return `Your console role does not allow ManageOrgSessions in the ${org} ${where}, where selected sessions are (the console's policy refuses it)`;
}

export function BulkActions({ selected, onDone }: { selected: readonly Session[]; onDone: () => void }) {
  const [kind, setKind] = useState<BulkKind | null>(null);
  const denied = useBulkRefusal(selected);
  const reasonId = useId();
  if (selected.length === 0) return null;
  const action = (k: BulkKind) => ({
    onPointerEnter: preloadDialog,
    onFocus: preloadDialog,
    onClick: () => setKind(k),
    disabled: denied !== undefined,
    title: denied,
    'aria-describedby': denied ? reasonId : undefined,
  });
  return (
    <div
      role="toolbar"
      aria-label="Selected sessions"
      className="mb-2 flex flex-wrap items-center gap-2 rounded-md border border-line bg-surface-2 px-3 py-2 text-sm"
    >
      <span className="font-medium">{formatNumber(selected.length)} selected</span>
      <Button size="sm" {...action('archive')}>
        Archive…
      </Button>
      <Button size="sm" variant="danger" {...action('terminate')}>
        Terminate…
      </Button>
      <Button size="sm" {...action('tag')}>
        Add tag…
      </Button>
      <Button size="sm" variant="ghost" onClick={onDone}>
        Clear selection
      </Button>
      {denied ? (
        <p id={reasonId} className="basis-full text-xs text-muted">
          {denied}
        </p>
      ) : null}
      {kind && (
        <Suspense fallback={null}>
          <BulkDialog
            kind={kind}
            selected={selected}
            onClose={(ran) => {
              setKind(null);
              if (ran) onDone();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
