/**
 * Webhook destinations and their delivery log. A URL is write-only like a secret: typed once, never shown again
 * (only its host); the signing secret is shown once, right after creation, for the receiver to check the
 * `X-Console-Signature` header. The log lists every attempt: its outcome, number, time and response code.
 */
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Copy, Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import {
  ALERT_LIMITS,
  MAX_DELIVERY_ATTEMPTS,
  WEBHOOK_FORMAT_LABELS,
  WEBHOOK_FORMATS,
  WebhookBody,
  type DeliveryAttempt,
  type WebhookDestination,
} from '@/api/console/alerts';
import { Badge } from '@/components/badge';
import { columnHelper, DataTable, timeColumn } from '@/components/data-table';
import { ConfirmDelete, DeleteButton } from '@/components/delete-action';
import { Form, SecretField, SelectField, SubmitButton, TextField } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { ProblemView } from '@/components/problem-view';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { AlertsNav } from './alerts-nav';
import { deliveriesInfiniteQueryOptions, useCreateWebhook, useDeleteWebhook, webhooksQueryOptions } from './api';

const hcol = columnHelper<WebhookDestination>();
const acol = columnHelper<DeliveryAttempt>();

const EMPTY: WebhookBody = { name: '', url: '', format: 'json' };

function NewWebhookButton() {
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const create = useCreateWebhook();
  const close = (o: boolean) => {
    setOpen(o);
    if (!o) {
      create.reset();
      setSecret(null);
    }
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <Button variant="primary" onClick={() => setOpen(true)}>
        <Plus className="size-4" aria-hidden /> New webhook
      </Button>
      <DialogContent className="w-[min(94vw,36rem)]">
        <DialogTitle>{secret ? `Webhook ${secret.name} added` : 'New webhook'}</DialogTitle>
        <DialogDescription>
          {secret
            ? 'Copy the signing secret now: it is shown this once. The receiver checks each request with it.'
            : 'Rules that choose it post their notifications here, signed, and retry on 5xx and timeouts.'}
        </DialogDescription>
        {secret ? (
          <div className="mt-4 flex flex-col gap-3">
            <label className="flex flex-col gap-1 text-sm font-medium">
              Signing secret
              <input
                readOnly
                value={secret.value}
                className="rounded-md border border-line bg-surface-2 px-2 py-1.5 font-mono text-xs"
                onFocus={(e) => e.currentTarget.select()}
              />
            </label>
            <p className="text-xs text-muted">
              Each request carries <code>X-Console-Timestamp</code> and{' '}
              <code>X-Console-Signature: sha256=HMAC-SHA256(secret, timestamp + &quot;.&quot; + body)</code> in hex.
            </p>
            <div className="flex justify-end gap-2">
              <Button
                onClick={() =>
                  void navigator.clipboard
                    ?.writeText(secret.value)
                    .then(() => toast({ title: 'Signing secret copied', tone: 'success' }))
                }
              >
                <Copy className="size-4" aria-hidden /> Copy
              </Button>
              <DialogClose asChild>
                <Button variant="primary">Done</Button>
              </DialogClose>
            </div>
          </div>
        ) : (
          open && (
            <Form
              schema={WebhookBody}
              defaultValues={EMPTY}
              aria-label="New webhook"
              className="mt-4"
              onSubmit={async (body) => {
                const created = await create.mutateAsync(body);
                setSecret({ name: created.name, value: created.signing_secret });
              }}
              actions={
                <div className="flex justify-end gap-2">
                  <DialogClose asChild>
                    <Button>Cancel</Button>
                  </DialogClose>
                  <SubmitButton pendingLabel="Checking the address…">Add webhook</SubmitButton>
                </div>
              }
            >
              <TextField name="name" label="Name" description={`1 to ${ALERT_LIMITS.destinationName} characters.`} />
              <SecretField
                name="url"
                label="URL"
                masked={false}
                description="Write-only: never shown again, only its host. Loopback and private addresses are refused unless the console's CONSOLE_ALERTS_ALLOW_PRIVATE_TARGETS allows them."
              />
              <SelectField
                name="format"
                label="Payload"
                options={WEBHOOK_FORMATS.map((f) => ({ value: f, label: WEBHOOK_FORMAT_LABELS[f] }))}
                description="Slack-compatible sends a text message an incoming webhook posts as is."
              />
            </Form>
          )
        )}
      </DialogContent>
    </Dialog>
  );
}

export function WebhooksScreen() {
  const hooks = useQuery(webhooksQueryOptions());
  const log = useInfiniteQuery(deliveriesInfiniteQueryOptions());
  const remove = useDeleteWebhook();
  const [deleting, setDeleting] = useState<WebhookDestination | null>(null);

  const hookCols = useMemo(
    () =>
      hcol.columns([
        hcol.accessor('name', {
          header: 'Name',
          enableHiding: false,
          meta: { width: 'minmax(10rem,1fr)', className: 'font-medium' },
        }),
        hcol.accessor('url_display', {
          header: 'Address',
          meta: { width: 'minmax(12rem,1.5fr)', className: 'font-mono text-xs' },
        }),
        hcol.accessor((h) => WEBHOOK_FORMAT_LABELS[h.format], {
          id: 'format',
          header: 'Payload',
          meta: { width: '9rem' },
        }),
        hcol.accessor((h) => h.made_by ?? '', {
          id: 'made_by',
          header: 'Added by',
          meta: { width: 'minmax(8rem,1fr)', className: 'text-sm' },
        }),
        hcol.accessor('created_at', { header: 'Added', ...timeColumn({ width: '7rem' }) }),
        hcol.display({
          id: 'actions',
          header: 'Actions',
          enableHiding: false,
          meta: { width: '7rem', label: 'Actions' },
          cell: ({ row: { original: h } }) => (
            <DeleteButton label={`Remove webhook ${h.name}`} onClick={() => setDeleting(h)}>
              Remove
            </DeleteButton>
          ),
        }),
      ]),
    [],
  );

  const logCols = useMemo(
    () =>
      acol.columns([
        acol.accessor('outcome', {
          header: 'Status',
          meta: { width: '7rem' },
          cell: ({ getValue }) =>
            getValue() === 'delivered' ? (
              <Badge tone="success">Delivered</Badge>
            ) : getValue() === 'retrying' ? (
              <Badge tone="warn">Will retry</Badge>
            ) : (
              <Badge tone="danger">Failed</Badge>
            ),
        }),
        acol.accessor('destination_name', { header: 'Webhook', meta: { width: 'minmax(8rem,1fr)' } }),
        acol.accessor('title', {
          header: 'Notification',
          meta: { width: 'minmax(14rem,2fr)', className: 'text-sm' },
        }),
        acol.accessor('attempt', {
          header: 'Attempt',
          meta: { width: '6rem', className: 'tabular-nums' },
          cell: ({ getValue }) => `${getValue()} of ${MAX_DELIVERY_ATTEMPTS}`,
        }),
        acol.accessor('at', { header: 'When', ...timeColumn({ width: '7rem' }) }),
        acol.accessor((a) => a.response_code ?? '', {
          id: 'response_code',
          header: 'Response',
          meta: { width: 'minmax(8rem,1fr)', className: 'flex flex-col text-xs' },
          cell: ({ row: { original: a } }) => (
            <>
              <span className="tabular-nums">{a.response_code ?? 'No answer'}</span>
              {a.error ? <span className="text-muted">{a.error}</span> : null}
            </>
          ),
        }),
      ]),
    [],
  );

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Where alert rules deliver besides the notification list: generic JSON or Slack-compatible, signed with HMAC-SHA256, retried with backoff on 5xx and timeouts."
        actions={<NewWebhookButton />}
      />
      <AlertsNav />
      {hooks.error ? (
        <ProblemView error={hooks.error} onRetry={() => void hooks.refetch()} />
      ) : (
        <DataTable
          label="Webhooks"
          tableId="alert-webhooks"
          columns={hookCols}
          data={hooks.data?.items}
          getRowId={(h) => h.destination_id}
          minWidth="50rem"
          estimateRowHeight={48}
          className="max-h-80"
          empty={{ title: 'No webhooks yet', hint: 'Add one with New webhook.' }}
        />
      )}
      <h2 className="mt-6 mb-2 text-base font-semibold">Delivery log</h2>
      <DataTable
        label="Delivery log"
        tableId="alert-deliveries"
        columns={logCols}
        query={log}
        getRowId={(a) => String(a.attempt_id)}
        minWidth="52rem"
        estimateRowHeight={52}
        empty={{ title: 'Nothing delivered yet', hint: 'Attempts appear here as rules deliver.' }}
      />
      <ConfirmDelete
        target={deleting}
        onClose={() => setDeleting(null)}
        mutation={remove}
        variables={(h) => h.destination_id}
        title={`Remove webhook ${deleting?.name ?? ''}?`}
        description="Rules stop delivering to it and deliveries still waiting are dropped. Its log stays."
        confirmLabel="Remove webhook"
        toastTitle={(h) => `Webhook ${h.name} removed`}
      />
    </>
  );
}
