/**
 * The one role picker of members, service users and IdP groups: the roles of a level (enterprise roles
 * enterprise-wide, organization roles in an organization), sorted by name, as options of the form kit's select;
 * for a service user only the roles the console's own credential may grant there, where that can be
 * established (`grantableRoles`), with why the others are missing.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Role } from '@/api/operations/members';
import { SelectField } from '@/components/form';
import { consoleSessionQueryOptions } from '@/lib/console-session';
import { selfQueryOptions } from '@/lib/principal';
import { rolesQueryOptions } from './api';
import {
  grantableDescription,
  grantableRoles,
  refusalReason,
  roleOptionLabel,
  roleTypeAt,
  rolesOfType,
  type RefusedRole,
} from './roles';

const byName = (a: Role, b: Role) => a.role_name.localeCompare(b.role_name);

export interface RolePicker {
  /** Loaded: the roles list was read. */
  ready: boolean;
  options: Array<{ value: string; label: string; textValue: string }>;
  /** Why some roles are not offered (service users only). */
  refused: RefusedRole[];
  /** What the field's description says about the offer. */
  description?: string;
  /** A role's name, for the messages after a change. */
  roleName: (roleId: string) => string;
}

/**
 * The roles offered at a level (`orgId` null: enterprise-wide). `grantable`: only those the console's own
 * credential may give there (the provisioning rule of service users).
 */
export function useRolePicker(orgId: string | null, opts: { grantable?: boolean } = {}): RolePicker {
  const roles = useQuery(rolesQueryOptions());
  const self = useQuery({ ...selfQueryOptions(), enabled: opts.grantable === true });
  // The person's console roles: the console's credential gives nobody more than they hold.
  const person = useQuery({ ...consoleSessionQueryOptions(), enabled: opts.grantable === true }).data?.permissions;
  return useMemo(() => {
    const all = roles.data ?? [];
    const grant = opts.grantable ? grantableRoles(all, self.data, orgId, person) : null;
    const offered = grant ? grant.offered : rolesOfType(all, roleTypeAt(orgId));
    const description = grant
      ? grant.known
        ? grantableDescription(orgId, person !== undefined)
        : grant.unknownReason
      : undefined;
    return {
      ready: roles.data !== undefined,
      options: [...offered]
        .sort(byName)
        .map((r) => ({ value: r.role_id, label: roleOptionLabel(r), textValue: r.role_name })),
      refused: grant ? [...grant.refused].sort((a, b) => byName(a.role, b.role)) : [],
      description,
      roleName: (id) => all.find((r) => r.role_id === id)?.role_name ?? id,
    };
  }, [roles.data, self.data, orgId, opts.grantable, person]);
}

/** The role select of a form (field `role_id`), with the roles not offered and why. */
export function RoleSelectField({
  picker,
  label,
  disabled,
}: {
  picker: RolePicker;
  label: string;
  disabled?: boolean;
}) {
  return (
    <>
      <SelectField
        name="role_id"
        label={label}
        placeholder={picker.ready ? 'Choose a role' : 'Loading roles…'}
        disabled={!picker.ready || disabled}
        description={picker.description}
        options={picker.options}
      />
      {picker.refused.length > 0 && (
        <details className="rounded-md border border-line p-2 text-xs">
          <summary className="cursor-pointer font-medium">
            {picker.refused.length} {picker.refused.length === 1 ? 'role is' : 'roles are'} not offered — why
          </summary>
          <ul className="mt-1 flex flex-col gap-1">
            {picker.refused.map((r) => (
              <li key={r.role.role_id}>
                <span className="font-medium">{r.role.role_name}</span>: {refusalReason(r)}.
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
