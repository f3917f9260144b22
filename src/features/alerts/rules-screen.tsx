/**
 * The alert rules: what each watches, whether it fires now, when it was last checked (and why it could not read
 * its figures), and the actions an admin takes on it — mute, snooze until a time, delete.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { BellOff, Bell, Clock } from 'lucide-react';
import { useMemo, useState } from 'react';
import { AlertRulePatch, type AlertRule } from '@/api/console/alerts';
import { Badge } from '@/components/badge';
import { columnHelper, DataTable } from '@/components/data-table';
import { ConfirmDelete, DeleteButton } from '@/components/delete-action';
import { DateTimeField, Form, SubmitButton } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { RelativeTime } from '@/components/relative-time';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { formatDateTime } from '@/lib/format';
import { organizationsInfiniteQueryOptions } from '@/lib/organizations';
import { AlertsNav } from './alerts-nav';
import { rulesQueryOptions, useDeleteRule, useUpdateRule, webhooksQueryOptions } from './api';
import { conditionOf, kindLabel } from './describe';
import { NewRuleButton } from './rule-form';

const col = columnHelper<AlertRule>();
const nowS = () => Math.floor(Date.now() / 1000);
const snoozed = (r: AlertRule) => r.snoozed_until !== null && r.snoozed_until > nowS();

function columns(opts: {
  orgName: (id: string) => string;
  hookName: (id: string) => string;
  onMute: (r: AlertRule) => void;
  onSnooze: (r: AlertRule) => void;
  onDelete: (r: AlertRule) => void;
}) {
  return col.columns([
    col.accessor('name', {
      header: 'Rule',
      enableSorting: true,
      enableHiding: false,
      meta: { width: 'minmax(12rem,1.2fr)', className: 'flex flex-col' },
      cell: ({ row: { original: r } }) => (
        <>
          <span className="font-medium">{r.name}</span>
          <span className="text-xs text-muted">{kindLabel(r.kind)}</span>
        </>
      ),
    }),
    col.accessor((r) => conditionOf(r, opts.orgName), {
      id: 'condition',
      header: 'Condition',
      meta: { width: 'minmax(14rem,2fr)', className: 'text-sm' },
    }),
    col.accessor((r) => r.destination_ids.map(opts.hookName).join(', '), {
      id: 'webhooks',
      header: 'Delivers to',
      meta: { width: 'minmax(9rem,1fr)', className: 'text-sm' },
      cell: ({ getValue }) => (
        <span>Notification list{getValue() ? <span className="text-muted">, {getValue()}</span> : null}</span>
      ),
    }),
    col.display({
      id: 'state',
      header: 'State',
      meta: { width: 'minmax(9rem,1fr)', className: 'flex flex-col gap-1 items-start' },
      cell: ({ row: { original: r } }) => (
        <>
          {r.firing > 0 ? <Badge tone="danger">Firing ({r.firing})</Badge> : <Badge tone="success">Quiet</Badge>}
          {r.muted ? <span className="text-xs">Muted</span> : null}
          {snoozed(r) ? <span className="text-xs">Snoozed until {formatDateTime(r.snoozed_until)}</span> : null}
        </>
      ),
    }),
    col.accessor('last_evaluated_at', {
      header: 'Last checked',
      meta: { width: 'minmax(8rem,1fr)', className: 'flex flex-col text-xs' },
      cell: ({ row: { original: r } }) => (
        <>
          {r.last_evaluated_at === null ? (
            <span className="text-muted">Not yet</span>
          ) : (
            <RelativeTime value={r.last_evaluated_at} />
          )}
          {r.last_error ? <span className="text-danger">{r.last_error}</span> : null}
        </>
      ),
    }),
    col.display({
      id: 'actions',
      header: 'Actions',
      enableHiding: false,
      meta: { width: '17rem', label: 'Actions', className: 'flex flex-wrap gap-1' },
      cell: ({ row: { original: r } }) => (
        <>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`${r.muted ? 'Unmute' : 'Mute'} rule ${r.name}`}
            onClick={() => opts.onMute(r)}
          >
            {r.muted ? <Bell className="size-3.5" aria-hidden /> : <BellOff className="size-3.5" aria-hidden />}
            {r.muted ? 'Unmute' : 'Mute'}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`${snoozed(r) ? 'End snooze of' : 'Snooze'} rule ${r.name}`}
            onClick={() => opts.onSnooze(r)}
          >
            <Clock className="size-3.5" aria-hidden /> {snoozed(r) ? 'End snooze' : 'Snooze'}
          </Button>
          <DeleteButton label={`Delete rule ${r.name}`} onClick={() => opts.onDelete(r)} />
        </>
      ),
    }),
  ]);
}

function SnoozeDialog({ rule, onClose }: { rule: AlertRule | null; onClose: () => void }) {
  const update = useUpdateRule();
  return (
    <Dialog
      open={rule !== null}
      onOpenChange={(o) => {
        if (!o) {
          onClose();
          update.reset();
        }
      }}
    >
      <DialogContent className="w-[min(94vw,30rem)]">
        <DialogTitle>Snooze {rule?.name}</DialogTitle>
        <DialogDescription>
          Until then the rule keeps watching but tells nobody; what starts or stops meanwhile is not announced later.
        </DialogDescription>
        {rule && (
          <Form
            schema={AlertRulePatch}
            defaultValues={{ snoozed_until: nowS() + 3_600 }}
            aria-label={`Snooze ${rule.name}`}
            className="mt-4"
            onSubmit={async (body, form) => {
              if (typeof body.snoozed_until !== 'number' || body.snoozed_until <= nowS()) {
                form.setError('snoozed_until', { message: 'Snooze until must be a time in the future' });
                return;
              }
              await update.mutateAsync({ ruleId: rule.rule_id, body });
              toast({
                title: `Rule ${rule.name} snoozed until ${formatDateTime(body.snoozed_until)}`,
                tone: 'success',
              });
              onClose();
            }}
            actions={
              <div className="flex justify-end gap-2">
                <DialogClose asChild>
                  <Button>Cancel</Button>
                </DialogClose>
                <SubmitButton pendingLabel="Snoozing…">Snooze</SubmitButton>
              </div>
            }
          >
            <DateTimeField name="snoozed_until" label="Snooze until" description="Your local time." required />
          </Form>
        )}
      </DialogContent>
    </Dialog>
  );
}

export function RulesScreen() {
  const rules = useQuery(rulesQueryOptions());
  const hooks = useQuery(webhooksQueryOptions());
  const orgs = useInfiniteQuery(organizationsInfiniteQueryOptions());
  const update = useUpdateRule();
  const remove = useDeleteRule();
  const [snoozing, setSnoozing] = useState<AlertRule | null>(null);
  const [deleting, setDeleting] = useState<AlertRule | null>(null);
  const { mutate } = update;

  const cols = useMemo(() => {
    const orgNames = new Map((orgs.data?.pages ?? []).flatMap((p) => p.items).map((o) => [o.org_id, o.name]));
    const hookNames = new Map((hooks.data?.items ?? []).map((h) => [h.destination_id, h.name]));
    return columns({
      orgName: (id) => orgNames.get(id) ?? `organization ${id}`,
      hookName: (id) => hookNames.get(id) ?? 'a removed webhook',
      onMute: (r) =>
        mutate(
          { ruleId: r.rule_id, body: { muted: !r.muted } },
          { onSuccess: () => toast({ title: `Rule ${r.name} ${r.muted ? 'unmuted' : 'muted'}`, tone: 'success' }) },
        ),
      onSnooze: (r) =>
        snoozed(r)
          ? mutate(
              { ruleId: r.rule_id, body: { snoozed_until: null } },
              { onSuccess: () => toast({ title: `Rule ${r.name} no longer snoozed`, tone: 'success' }) },
            )
          : setSnoozing(r),
      onDelete: setDeleting,
    });
  }, [orgs.data, hooks.data, mutate]);

  return (
    <>
      <PageHeader
        title="Alert rules"
        description="What the console watches for you. It checks every rule on a schedule, from the same figures the screens show, and tells the notification list and the chosen webhooks."
        actions={<NewRuleButton />}
      />
      <AlertsNav />
      {update.error && (
        <div className="mb-3">
          <ProblemView compact error={update.error} />
        </div>
      )}
      {rules.error ? (
        <ProblemView error={rules.error} onRetry={() => void rules.refetch()} />
      ) : (
        <DataTable
          label="Alert rules"
          tableId="alert-rules"
          columns={cols}
          data={rules.data?.items}
          getRowId={(r) => r.rule_id}
          minWidth="64rem"
          estimateRowHeight={64}
          empty={{ title: 'No rules yet', hint: 'Create one with New rule.' }}
        />
      )}
      <SnoozeDialog rule={snoozing} onClose={() => setSnoozing(null)} />
      <ConfirmDelete
        target={deleting}
        onClose={() => setDeleting(null)}
        mutation={remove}
        variables={(r) => r.rule_id}
        title={`Delete rule ${deleting?.name ?? ''}?`}
        description="It stops watching. Notifications it raised stay in the list."
        confirmLabel="Delete rule"
        toastTitle={(r) => `Rule ${r.name} deleted`}
      />
    </>
  );
}
