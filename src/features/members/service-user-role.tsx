/**
 * Giving a service user a role, or changing it: its enterprise role, or its role in its organization (the level
 * it was created at, as its `org_id` or its role assignment says). The form offers only the roles the console's
 * own credential may grant there, where that can be established (`grantableRoles`: the provisioning rule), and
 * says why the others are missing; otherwise it offers every role of the level and the API decides (403 names
 * the permissions at fault). Over the contract's RoleIdBody, 422 errors on the role field.
 */
import { RoleIdBody } from '@/api/operations/members';
import type { ServiceUser } from '@/api/operations/service-users';
import { Form, SubmitButton } from '@/components/form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { useSetServiceUserRole } from './api';
import { RoleSelectField, useRolePicker } from './role-picker';

/**
 * The level a service user's role is at: the screen's organization; else the one it was created in (sandbox
 * `org_id`, null for the enterprise's); else, as the vendor says only its roles, the enterprise when it holds an
 * enterprise role, or the organization of its role.
 */
export function serviceUserLevel(s: ServiceUser, screenOrgId: string | null): string | null {
  if (screenOrgId !== null) return screenOrgId;
  if (s.org_id !== undefined) return s.org_id ?? null;
  if (s.role_assignments.some((a) => !a.org_id)) return null;
  return s.role_assignments.find((a) => a.org_id)?.org_id ?? null;
}

/** Its role at that level, if it has one. */
export function serviceUserRoleAt(s: ServiceUser, orgId: string | null) {
  return s.role_assignments.find((a) => (orgId === null ? !a.org_id : a.org_id === orgId))?.role;
}

export function ServiceUserRoleDialog({
  serviceUser,
  screenOrgId,
  orgName,
  onClose,
}: {
  serviceUser: ServiceUser | null;
  /** The organization of the screen (its service users), or null on the enterprise's. */
  screenOrgId: string | null;
  orgName: (orgId: string) => string;
  onClose: () => void;
}) {
  const orgId = serviceUser ? serviceUserLevel(serviceUser, screenOrgId) : null;
  const current = serviceUser ? serviceUserRoleAt(serviceUser, orgId) : undefined;
  const where = orgId === null ? 'enterprise role' : `role in ${orgName(orgId)}`;
  return (
    <Dialog open={serviceUser !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent className="w-[min(94vw,36rem)]">
        <DialogTitle>
          {current ? 'Change' : 'Give'} the {where} of {serviceUser?.name ?? ''}
        </DialogTitle>
        <DialogDescription>
          {current ? `It holds ${current.role_name} now.` : `It has no ${where} now.`} Its credential gets exactly the
          permissions of the new role at once.
        </DialogDescription>
        {serviceUser && (
          <RoleForm
            serviceUser={serviceUser}
            orgId={orgId}
            where={where}
            currentId={current?.role_id}
            onDone={onClose}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function RoleForm({
  serviceUser,
  orgId,
  where,
  currentId,
  onDone,
}: {
  serviceUser: ServiceUser;
  orgId: string | null;
  where: string;
  currentId: string | undefined;
  onDone: () => void;
}) {
  const picker = useRolePicker(orgId, { grantable: true });
  const set = useSetServiceUserRole();
  const label = where[0]!.toUpperCase() + where.slice(1);
  return (
    <Form
      schema={RoleIdBody}
      defaultValues={{ role_id: picker.options.some((o) => o.value === currentId) ? (currentId ?? '') : '' }}
      aria-label={`${label} of ${serviceUser.name}`}
      className="mt-4"
      onSubmit={async (body) => {
        await set.mutateAsync({ serviceUserId: serviceUser.service_user_id, orgId, body });
        toast({ title: `${serviceUser.name} is now ${picker.roleName(body.role_id)}`, tone: 'success' });
        onDone();
      }}
      actions={
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <SubmitButton pendingLabel="Saving…">Save role</SubmitButton>
        </div>
      }
    >
      <RoleSelectField picker={picker} label={label} />
    </Form>
  );
}
