/**
 * One playbook: its body rendered as Markdown, its details, edit / delete, and "Start a session with this
 * playbook", which opens the create-session form with it chosen (in the organization of an organization's
 * playbook; an enterprise playbook asks which organization).
 */
import { useInfiniteQuery, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Play } from 'lucide-react';
import { useState } from 'react';
import { FilterSelect } from '@/components/filter-select';
import { AccessBadge, DocumentDetail, DocumentDetails, MarkdownDocumentView } from '@/components/markdown-document';
import { Button, buttonClass } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { forgetPlaybook, playbookQueryOptions, useDeletePlaybook, type PlaybookScope } from './api';
import { playbookRoute, startSessionRoute } from './links';

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <DocumentDetail label={label} className="break-all">
      {children}
    </DocumentDetail>
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
  const remove = useDeletePlaybook(scope);
  // The organization a session starts in: the playbook's own, or the one whose pages are open.
  const sessionOrg = playbook.org_id ?? (scope.kind === 'org' ? scope.orgId : undefined);

  return (
    <MarkdownDocumentView
      title={playbook.title}
      description={
        <>
          <AccessBadge document={playbook} />
          {playbook.macro && <span className="font-mono text-xs">{playbook.macro}</span>}
          <span className="font-mono text-xs">{playbook.playbook_id}</span>
        </>
      }
      list={{ to: playbookRoute(scope, 'list'), label: 'All playbooks' }}
      edit={playbookRoute(scope, 'edit', playbook.playbook_id)}
      actions={
        sessionOrg && (
          <Link
            {...startSessionRoute(sessionOrg, playbook.playbook_id)}
            className={buttonClass({ variant: 'primary' })}
          >
            <Play className="size-4" aria-hidden /> Start a session with this playbook
          </Link>
        )
      }
      body={playbook.body}
      bodyLabel="Playbook body"
      remove={{
        mutation: remove,
        id: playbook.playbook_id,
        description:
          'Sessions and schedules that name it keep its id, but can no longer follow it. This cannot be undone.',
        confirmLabel: 'Delete playbook',
        forget: (queryClient, id) => forgetPlaybook(queryClient, scope, id),
      }}
    >
      {!sessionOrg && (
        <div className="mb-4 rounded-lg border border-line bg-surface p-4">
          <StartInOrganization playbookId={playbook.playbook_id} />
        </div>
      )}
      <DocumentDetails>
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
      </DocumentDetails>
    </MarkdownDocumentView>
  );
}
