/**
 * What an admin does to one member: change its role (the enterprise role, or its role in an organization),
 * remove it (from the enterprise, or from one organization) behind a confirmation, and add an existing
 * member of the enterprise to an organization.
 */
import { RoleIdBody, type User } from '@/api/operations/members';
import { ConfirmDelete } from '@/components/delete-action';
import { Form, SubmitButton, TextField } from '@/components/form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { ApiError } from '@/lib/api-error';
import { problem } from '@/api/problem';
import { findUserByEmail, useRemoveMember, useSetRole } from './api';
import { RoleSelectField, useRolePicker } from './role-picker';

const who = (u: Pick<User, 'email' | 'name' | 'user_id'>) => u.email ?? u.name ?? u.user_id;

/** The user's role at a level: its enterprise role (orgId undefined) or its direct role in that organization. */
export function directRoleAt(user: User, orgId: string | undefined) {
  return user.role_assignments.find((a) => (orgId === undefined ? !a.org_id : a.org_id === orgId))?.role;
}

export function ChangeRoleDialog({
  user,
  orgId,
  orgName,
  onClose,
}: {
  user: User | null;
  /** Set: the role in this organization; else the enterprise role. */
  orgId?: string;
  orgName?: string;
  onClose: () => void;
}) {
  const picker = useRolePicker(orgId ?? null);
  const setRole = useSetRole();
  const current = user ? directRoleAt(user, orgId) : undefined;
  const where = orgId === undefined ? 'enterprise role' : `role in ${orgName ?? orgId}`;
  return (
    <Dialog open={user !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <DialogTitle>Change {where}</DialogTitle>
        <DialogDescription>
          {user ? who(user) : ''}
          {current ? ` holds ${current.role_name} now.` : ' has no direct role here now.'} Roles through IdP groups do
          not change.
        </DialogDescription>
        {user && (
          <Form
            schema={RoleIdBody}
            defaultValues={{ role_id: current?.role_id ?? '' }}
            aria-label={`Change ${where}`}
            className="mt-4"
            onSubmit={async (body) => {
              await setRole.mutateAsync({ userId: user.user_id, orgId, body });
              toast({ title: `${who(user)} is now ${picker.roleName(body.role_id)}`, tone: 'success' });
              onClose();
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
            <RoleSelectField picker={picker} label="Role" />
          </Form>
        )}
      </DialogContent>
    </Dialog>
  );
}

export function RemoveMemberDialog({
  user,
  orgId,
  orgName,
  onClose,
}: {
  user: User | null;
  orgId?: string;
  orgName?: string;
  onClose: () => void;
}) {
  const remove = useRemoveMember();
  const name = user ? who(user) : '';
  return (
    <ConfirmDelete
      target={user}
      onClose={onClose}
      mutation={remove}
      variables={(u) => ({ userId: u.user_id, orgId })}
      title={orgId === undefined ? `Remove ${name} from the enterprise?` : `Remove ${name} from ${orgName ?? orgId}?`}
      description={
        orgId === undefined
          ? 'They lose every role, in every organization, and their IdP group memberships. Their sessions and notes stay.'
          : 'They lose their role in this organization. Enterprise-wide roles and roles through IdP groups stay.'
      }
      confirmLabel="Remove"
      toastTitle={(u) => `${who(u)} removed`}
    />
  );
}

interface AddValues {
  email: string;
  role_id: string;
}

/** Adds an existing member of the enterprise to an organization with an organization role. */
export function AddToOrgDialog({
  open,
  orgId,
  orgName,
  onClose,
}: {
  open: boolean;
  orgId: string;
  orgName: string;
  onClose: () => void;
}) {
  const picker = useRolePicker(orgId);
  const setRole = useSetRole();
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      <DialogContent>
        <DialogTitle>Add a member to {orgName}</DialogTitle>
        <DialogDescription>
          Someone who is already a member of the enterprise (invite new people from the enterprise’s Members).
        </DialogDescription>
        {open && (
          <Form<typeof RoleIdBody, AddValues>
            schema={RoleIdBody}
            defaultValues={{ email: '', role_id: '' }}
            toBody={toRoleBody}
            aria-label={`Add a member to ${orgName}`}
            className="mt-4"
            onSubmit={async (body, form) => {
              const email = form.getValues('email').trim();
              const user = email ? await findUserByEmail(email) : undefined;
              if (!user) {
                throw emailError(
                  email
                    ? `${email} is not a member of the enterprise; invite them from the enterprise’s Members first`
                    : 'Enter the address of a member of the enterprise',
                );
              }
              await setRole.mutateAsync({ userId: user.user_id, orgId, body });
              toast({ title: `${who(user)} added to ${orgName}`, tone: 'success' });
              onClose();
            }}
            actions={
              <div className="flex justify-end gap-2">
                <DialogClose asChild>
                  <Button>Cancel</Button>
                </DialogClose>
                <SubmitButton pendingLabel="Adding…">Add member</SubmitButton>
              </div>
            }
          >
            <TextField name="email" label="Email address" type="email" autoComplete="off" required />
            <RoleSelectField picker={picker} label="Organization role" />
          </Form>
        )}
      </DialogContent>
    </Dialog>
  );
}

/** A problem on the address field, shown there like the API's own 422s. */
function emailError(msg: string): ApiError {
  return new ApiError(422, problem(422, msg, { errors: [{ loc: ['body', 'email'], msg, type: 'value_error' }] }));
}

function toRoleBody(v: AddValues): RoleIdBody {
  return { role_id: v.role_id };
}
