/**
 * Bulk invitation: paste up to 100 addresses (one or several per line, bare or `Name <address>`), choose the
 * enterprise role they get. Before anything is sent the paste is read: repeated addresses are flagged (sent
 * once), malformed ones flagged and the form refuses them, and the count shows against the limit. The API
 * invites all or nobody; addresses it refuses (already members) are listed by address.
 */
import { useQuery } from '@tanstack/react-query';
import { UserPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { InviteUsersBody } from '@/api/operations/members';
import { fieldPath } from '@/api/problem';
import { Form, SelectField, SubmitButton, TextareaField } from '@/components/form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { ApiError, isApiError } from '@/lib/api-error';
import { formatNumber } from '@/lib/format';
import { rolesQueryOptions, useInviteUsers } from './api';
import { INVITATIONS_LIMIT, readInvitations } from './paste-list';
import { permissionsPublished, roleOptionLabel, rolesOfType } from './roles';
import { Flagged } from './shared';

interface InviteValues {
  /** The pasted text; the body's `emails` is read from it. */
  emails: string;
  enterprise_role_id: string;
}

function toBody(v: InviteValues): InviteUsersBody {
  return { emails: readInvitations(v.emails).sent, enterprise_role_id: v.enterprise_role_id };
}

/** The API's 422 with its per-address errors folded into one on the field (the preview lists them). */
function refusedAddresses(error: ApiError, count: number): ApiError {
  const others = error.fieldErrors.filter((fe) => !/^emails\.\d+$/.test(fieldPath(fe.loc)));
  const msg = `${count} ${count === 1 ? 'address was' : 'addresses were'} refused (listed below); nobody was invited`;
  return new ApiError(422, {
    ...error.problem,
    errors: [...others, { loc: ['body', 'emails'], msg, type: 'refused' }],
  });
}

const countAddresses = (v: unknown) => (typeof v === 'string' ? readInvitations(v).sent.length : 0);

export function InviteButton({ disabled, title }: { disabled?: boolean; title?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button variant="primary" disabled={disabled} title={title} onClick={() => setOpen(true)}>
        <UserPlus className="size-4" aria-hidden /> Invite members
      </Button>
      <DialogContent className="w-[min(94vw,40rem)]">
        <DialogTitle>Invite members</DialogTitle>
        <DialogDescription>
          Paste up to {INVITATIONS_LIMIT} addresses. Everyone invited gets the enterprise role you choose; nobody is
          invited unless every address can be.
        </DialogDescription>
        {open && <InviteForm onDone={() => setOpen(false)} />}
      </DialogContent>
    </Dialog>
  );
}

function InviteForm({ onDone }: { onDone: () => void }) {
  const roles = useQuery(rolesQueryOptions());
  const invite = useInviteUsers();
  const enterpriseRoles = useMemo(() => rolesOfType(roles.data ?? [], 'enterprise'), [roles.data]);
  // The fewest permissions by default: inviting is not the moment to hand out power by accident. When the API
  // does not publish the roles' permissions, which has fewest is unknown: no default, the admin chooses.
  const defaultRole = useMemo(
    () =>
      enterpriseRoles.every(permissionsPublished)
        ? ([...enterpriseRoles].sort((a, b) => (a.permissions?.length ?? 0) - (b.permissions?.length ?? 0))[0]
            ?.role_id ?? '')
        : '',
    [enterpriseRoles],
  );
  /** Addresses the API refused, by address, from the last attempt. */
  const [refused, setRefused] = useState<Map<string, string>>(new Map());

  if (!roles.data)
    return <p className="mt-4 text-sm text-muted">{roles.error ? 'The roles could not be read.' : 'Loading roles…'}</p>;

  return (
    <Form
      schema={InviteUsersBody}
      defaultValues={{ emails: '', enterprise_role_id: defaultRole }}
      toBody={toBody}
      aria-label="Invite members"
      className="mt-4"
      onSubmit={async (body) => {
        setRefused(new Map());
        try {
          const invited = await invite.mutateAsync(body);
          toast({
            title: `Invited ${formatNumber(invited.length)} ${invited.length === 1 ? 'person' : 'people'}`,
            tone: 'success',
          });
          onDone();
        } catch (error) {
          if (isApiError(error) && error.status === 422) {
            const byAddress = new Map<string, string>();
            for (const fe of error.fieldErrors) {
              const m = /^emails\.(\d+)$/.exec(fieldPath(fe.loc));
              const address = m ? body.emails[Number(m[1])] : undefined;
              if (address) byAddress.set(address, fe.msg);
            }
            setRefused(byAddress);
            // The addresses are listed under the field; the field says how many.
            if (byAddress.size > 0) throw refusedAddresses(error, byAddress.size);
          }
          throw error;
        }
      }}
      actions={
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <SubmitButton pendingLabel="Inviting…">Send invitations</SubmitButton>
        </div>
      }
    >
      <TextareaField
        name="emails"
        label="Email addresses"
        description="Separated by new lines, commas or spaces; “Name <address>” works too."
        countOf={countAddresses}
        unit="addresses"
        placeholder={'ada@example.com\ngrace@example.com'}
        textareaClassName="min-h-36 font-mono text-xs"
      />
      <InvitePreview refused={refused} />
      <SelectField
        name="enterprise_role_id"
        label="Enterprise role"
        description="What every invited person may do across the enterprise; organization roles are given per organization."
        options={enterpriseRoles.map((r) => ({
          value: r.role_id,
          label: roleOptionLabel(r),
          textValue: r.role_name,
        }))}
      />
    </Form>
  );
}

/** What the paste holds, read as the admin types: what will be sent, and what is flagged. */
function InvitePreview({ refused }: { refused: ReadonlyMap<string, string> }) {
  const text = useWatch<InviteValues, 'emails'>({ name: 'emails' });
  const list = useMemo(() => readInvitations(text ?? ''), [text]);
  if (list.entries.length === 0) return null;
  const rejected = list.entries.filter((e) => e.repeats === undefined && refused.has(e.value));
  return (
    <div className="-mt-2 flex flex-col gap-2 text-xs" data-testid="invite-preview">
      <p aria-live="polite" className="text-muted">
        {formatNumber(list.valid)} valid {list.valid === 1 ? 'address' : 'addresses'}
        {list.repeated.length > 0 && ` · ${formatNumber(list.repeated.length)} repeated (sent once)`}
        {list.malformed.length > 0 && ` · ${formatNumber(list.malformed.length)} malformed`}
      </p>
      <Flagged title="Malformed: fix or remove them" tone="danger" entries={list.malformed} reason={(e) => e.problem} />
      <Flagged
        title="Refused by the API: remove them"
        tone="danger"
        entries={rejected}
        reason={(e) => refused.get(e.value)}
      />
      <Flagged
        title="Repeated: each is invited once"
        tone="muted"
        entries={list.repeated}
        reason={(e) => `repeats line ${list.entries[e.repeats ?? 0]?.line ?? '?'}`}
      />
    </div>
  );
}
