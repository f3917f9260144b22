/**
 * Creating a service user: name, level (the enterprise or an organization), role and lifetime, over the
 * contract's create schema. The role list holds only the roles the console's own credential may grant at that
 * level (the provisioning rule: a role's permissions must all be held by the caller there, and the
 * service-user-management permissions never), and says why the others are missing. The new credential is
 * shown once, with a copy button and a warning, and forgotten when its dialog closes.
 */
import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Copy, KeyRound, Plus } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { CreateServiceUserBody, SERVICE_USER_LIMITS, type CreatedServiceUser } from '@/api/operations/service-users';
import { Form, NumberField, SelectField, SubmitButton, TextField } from '@/components/form';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { consoleSessionQueryOptions } from '@/lib/console-session';
import { selfQueryOptions } from '@/lib/principal';
import { rolesQueryOptions, useCreateServiceUser, type MembersScope } from './api';
import { grantableDescription, grantableRoles, refusalReason, roleOptionLabel } from './roles';
import type { OrgDirectory } from './shared';

interface CreateValues {
  name: string;
  /** `''`: the enterprise; else an organization id. Not part of the body: it picks the route. */
  level: string;
  role_id: string;
  lifetime_days: number | undefined;
}

function toBody(v: CreateValues): CreateServiceUserBody {
  const body: CreateServiceUserBody = { name: v.name, role_id: v.role_id };
  if (v.lifetime_days !== undefined && !Number.isNaN(v.lifetime_days)) body.lifetime_days = v.lifetime_days;
  return body;
}

const { lifetimeDays: LIFETIME } = SERVICE_USER_LIMITS;

export function CreateServiceUserButton({
  scope,
  orgs,
  disabled,
  title,
}: {
  scope: MembersScope;
  orgs: OrgDirectory;
  disabled?: boolean;
  title?: string;
}) {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<CreatedServiceUser | null>(null);
  const create = useCreateServiceUser();
  return (
    <>
      <Dialog open={open} onOpenChange={setOpen}>
        <Button variant="primary" disabled={disabled} title={title} onClick={() => setOpen(true)}>
          <Plus className="size-4" aria-hidden /> New service user
        </Button>
        <DialogContent className="w-[min(94vw,38rem)]">
          <DialogTitle>New service user</DialogTitle>
          <DialogDescription>
            A credential for a program (CI, a bot, an integration), with exactly the permissions of its role.
          </DialogDescription>
          {open && (
            <CreateForm
              scope={scope}
              orgs={orgs}
              onCreated={(su) => {
                setOpen(false);
                setCreated(su);
              }}
              create={create.mutateAsync}
            />
          )}
        </DialogContent>
      </Dialog>
      <CredentialDialog
        created={created}
        onClose={() => {
          // The credential leaves the page's memory with the dialog.
          setCreated(null);
          create.reset();
        }}
      />
    </>
  );
}

function CreateForm({
  scope,
  orgs,
  onCreated,
  create,
}: {
  scope: MembersScope;
  orgs: OrgDirectory;
  onCreated: (su: CreatedServiceUser) => void;
  create: (v: { orgId: string | null; body: CreateServiceUserBody }) => Promise<CreatedServiceUser>;
}) {
  const fixedOrg = scope.kind === 'org' ? scope.orgId : undefined;
  return (
    <Form
      schema={CreateServiceUserBody}
      defaultValues={{ name: '', level: fixedOrg ?? '', role_id: '', lifetime_days: undefined }}
      toBody={toBody}
      aria-label="New service user"
      className="mt-4"
      onSubmit={async (body, form) => {
        const level = fixedOrg ?? form.getValues('level');
        onCreated(await create({ orgId: level || null, body }));
      }}
      actions={
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <SubmitButton pendingLabel="Creating…">Create service user</SubmitButton>
        </div>
      }
    >
      <TextField
        name="name"
        label="Name"
        description="Say what it is for: “CI deploys”, “Slack bot”."
        autoComplete="off"
      />
      {fixedOrg ? (
        <p className="text-sm">
          <span className="font-medium">Level:</span> {orgs.name(fixedOrg)} (organization roles; its credential works on
          this organization’s paths only)
        </p>
      ) : (
        <SelectField
          name="level"
          label="Level"
          description="The enterprise (enterprise roles) or one organization (organization roles, that organization only)."
          options={[
            { value: '', label: 'Enterprise' },
            ...orgs.organizations.map((o) => ({
              value: o.org_id,
              label: `Organization: ${o.name}`,
              textValue: o.name,
            })),
          ]}
        />
      )}
      <RoleChoice fixedOrg={fixedOrg} />
      <NumberField
        name="lifetime_days"
        label="Lifetime (days)"
        min={LIFETIME.min}
        max={LIFETIME.max}
        step={1}
        placeholder="No expiry"
        description={`From ${LIFETIME.min} to ${LIFETIME.max} days; empty: the credential does not expire.`}
      />
    </Form>
  );
}

/** The roles the console may grant at the chosen level, and why the others are missing. */
function RoleChoice({ fixedOrg }: { fixedOrg: string | undefined }) {
  const roles = useQuery(rolesQueryOptions());
  const self = useQuery(selfQueryOptions());
  // The person's console roles: the console's credential gives nobody more than they hold.
  const person = useQuery(consoleSessionQueryOptions()).data?.permissions;
  const { setValue, getValues } = useFormContext<CreateValues>();
  const level = useWatch<CreateValues, 'level'>({ name: 'level' });
  const orgId = fixedOrg ?? (level || null);
  const grantable = useMemo(
    () => grantableRoles(roles.data ?? [], self.data, orgId, person),
    [roles.data, self.data, orgId, person],
  );
  const listId = useId();

  // A role of the other level, or one not offered here, is no choice.
  useEffect(() => {
    const current = getValues('role_id');
    if (current && !grantable.offered.some((r) => r.role_id === current)) setValue('role_id', '');
  }, [grantable, getValues, setValue]);

  return (
    <div className="flex flex-col gap-2">
      <SelectField
        name="role_id"
        label="Role"
        placeholder={roles.data ? 'Choose a role' : 'Loading roles…'}
        disabled={!roles.data}
        description={grantable.known ? grantableDescription(orgId, person !== undefined) : grantable.unknownReason}
        options={grantable.offered.map((r) => ({
          value: r.role_id,
          label: roleOptionLabel(r),
          textValue: r.role_name,
        }))}
      />
      {grantable.refused.length > 0 && (
        <details className="rounded-md border border-line p-2 text-xs">
          <summary className="cursor-pointer font-medium">
            {grantable.refused.length} {grantable.refused.length === 1 ? 'role is' : 'roles are'} not offered — why
          </summary>
          <p className="mt-1 text-muted">
            A service user provisions others only within its own privileges, the console gives nobody more than your
            console roles hold, and the service-user-management permissions can never be granted.
          </p>
          <ul id={listId} className="mt-1 flex flex-col gap-1">
            {grantable.refused.map((r) => (
              <li key={r.role.role_id}>
                <span className="font-medium">{r.role.role_name}</span>: {refusalReason(r)}.
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** The new credential, shown once: copy it now, it is never shown again. */
export function CredentialDialog({ created, onClose }: { created: CreatedServiceUser | null; onClose: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const inputId = useId();
  const close = () => {
    setCopied(null);
    onClose();
  };
  return (
    <Dialog open={created !== null} onOpenChange={(o) => !o && close()}>
      <DialogContent
        className="w-[min(94vw,36rem)]"
        // Only the explicit button closes it: a stray click must not lose the credential.
        onInteractOutside={(e) => e.preventDefault()}
        onEscapeKeyDown={(e) => e.preventDefault()}
      >
        <DialogTitle className="flex items-center gap-2">
          <KeyRound className="size-4" aria-hidden /> {created?.name} created
        </DialogTitle>
        <DialogDescription>Its credential works at once, with exactly the permissions of its role.</DialogDescription>
        <div className="mt-4 flex gap-2 rounded-md border border-warn/40 bg-warn/10 p-3 text-sm">
          <AlertTriangle className="mt-0.5 size-4 shrink-0 text-warn" aria-hidden />
          <p>
            <strong>Copy the credential now: it is shown only this once.</strong> The API keeps only its hash, so
            neither the console nor the API can show it again. Store it in your secret manager; if it is lost, delete
            the service user and create another.
          </p>
        </div>
        <div className="mt-4 flex flex-col gap-1">
          <label htmlFor={inputId} className="text-sm font-medium">
            Credential
          </label>
          <div className="flex gap-2">
            <Input
              id={inputId}
              readOnly
              value={created?.credential ?? ''}
              spellCheck={false}
              autoComplete="off"
              className="font-mono text-xs"
              onFocus={(e) => e.currentTarget.select()}
            />
            <Button
              onClick={() => {
                if (!created) return;
                navigator.clipboard.writeText(created.credential).then(
                  () => setCopied('yes'),
                  () => setCopied('failed'),
                );
              }}
            >
              <Copy className="size-4" aria-hidden /> Copy
            </Button>
          </div>
          <p aria-live="polite" className="min-h-4 text-xs text-muted">
            {copied === 'yes'
              ? 'Copied to the clipboard.'
              : copied === 'failed'
                ? 'The browser did not allow copying: select the credential and copy it by hand.'
                : ''}
          </p>
        </div>
        <DialogFooter>
          <Button variant="primary" onClick={close}>
            I have stored it — close
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
