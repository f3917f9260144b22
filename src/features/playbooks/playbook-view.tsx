/**
 * One playbook: its body rendered as Markdown, its details, edit / delete, and "Start a session with this
 * playbook", which opens the create-session form with it chosen (in the organization of an organization's
 * playbook; an enterprise playbook asks which organization).
 */
import { useInfiniteQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, Pencil, Play, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Markdown } from '@/components/markdown';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button, buttonClass } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FilterSelect } from '@/components/filter-select';
import { formatDateTime } from '@/lib/format';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { forgetPlaybook, playbookQueryOptions, useDeletePlaybook, type PlaybookScope } from './api';
import { PlaybookLink, playbookRoute, startSessionRoute } from './links';
import { AccessBadge } from './playbooks-screen';

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-muted">{label}</dt>
      <dd className="break-all">{children}</dd>
    </div>
  );
}

/** For an enterprise playbook: pick the organization the session starts in. */
function StartInOrganization({ playbookId }: { playbookId: string }) {
  const orgs = useInfiniteQuery(organizationsInfiniteQueryOptions());
  const options = (orgs.data?.pages ?? []).flatMap((p) => p.items).map((o) => ({ value: o.org_id, label: o.name }));
  const [orgId, setOrgId] = useState('');
  const navigate = useNavigate();
  return (
    <div className="flex flex-wrap items-end gap-2">
      <FilterSelect
        className="w-56"
        label="Organization"
        value={orgId}
        onValueChange={setOrgId}
        options={options}
        placeholder={orgs.isPending ? 'Loading…' : 'Choose an organization'}
      />
      <Button variant="primary" disabled={!orgId} onClick={() => void navigate(startSessionRoute(orgId, playbookId))}>
        <Play className="size-4" aria-hidden /> Start a session with this playbook
      </Button>
    </div>
  );
}

export function PlaybookView({ scope, playbookId }: { scope: PlaybookScope; playbookId: string }) {
  const { data: playbook } = useSuspenseQuery(playbookQueryOptions(scope, playbookId));
  const navigate = useNavigate();
  const remove = useDeletePlaybook(scope);
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  // The organization a session starts in: the playbook's own, or the one whose pages are open.
  const sessionOrg = playbook.org_id ?? (scope.kind === 'org' ? scope.orgId : undefined);

  return (
    <div className="max-w-4xl">
      <PlaybookLink
        scope={scope}
        target="list"
        className="mb-3 inline-flex items-center gap-1 text-sm text-accent underline underline-offset-2 hover:no-underline"
      >
        <ArrowLeft className="size-4" aria-hidden /> All playbooks
      </PlaybookLink>
      <PageHeader
        title={playbook.title}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <AccessBadge playbook={playbook} />
            {playbook.macro && <span className="font-mono text-xs">{playbook.macro}</span>}
            <span className="font-mono text-xs">{playbook.playbook_id}</span>
          </span>
        }
        actions={
          <>
            {sessionOrg && (
              <Link
                {...startSessionRoute(sessionOrg, playbook.playbook_id)}
                className={buttonClass({ variant: 'primary' })}
              >
                <Play className="size-4" aria-hidden /> Start a session with this playbook
              </Link>
            )}
            <PlaybookLink scope={scope} target="edit" playbookId={playbook.playbook_id} className={buttonClass()}>
              <Pencil className="size-4" aria-hidden /> Edit
            </PlaybookLink>
            <Button variant="danger" onClick={() => setConfirming(true)}>
              <Trash2 className="size-4" aria-hidden /> Delete
            </Button>
          </>
        }
      />
      {!sessionOrg && (
        <div className="mb-4 rounded-lg border border-line bg-surface p-4">
          <StartInOrganization playbookId={playbook.playbook_id} />
        </div>
      )}
      <dl className="mb-4 grid grid-cols-1 gap-x-6 gap-y-3 rounded-lg border border-line bg-surface p-4 text-sm sm:grid-cols-2">
        <Detail label="Organization">
          {playbook.org_id ? <span className="font-mono text-xs">{playbook.org_id}</span> : 'Every organization'}
        </Detail>
        <Detail label="Macro">
          {playbook.macro ? <span className="font-mono text-xs">{playbook.macro}</span> : '—'}
        </Detail>
        <Detail label="Created">
          {formatDateTime(playbook.created_at)} by <span className="font-mono text-xs">{playbook.created_by}</span>
        </Detail>
        <Detail label="Updated">
          {formatDateTime(playbook.updated_at)} by <span className="font-mono text-xs">{playbook.updated_by}</span>
        </Detail>
      </dl>
      <section aria-label="Playbook body" className="rounded-lg border border-line bg-surface p-4">
        <Markdown source={playbook.body} />
      </section>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(o) => {
          setConfirming(o);
          if (!o) remove.reset();
        }}
        title={`Delete “${playbook.title}”?`}
        description="Sessions and schedules that name it keep its id, but can no longer follow it. This cannot be undone."
        confirmLabel="Delete playbook"
        destructive
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(playbook.playbook_id, {
            onSuccess: () => {
              setConfirming(false);
              void navigate(playbookRoute(scope, 'list')).then(() =>
                forgetPlaybook(queryClient, scope, playbook.playbook_id),
              );
            },
          })
        }
      >
        {remove.error && (
          <div className="mt-3">
            <ProblemView compact error={remove.error} />
          </div>
        )}
      </ConfirmDialog>
    </div>
  );
}
