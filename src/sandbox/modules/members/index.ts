/**
 * Members and access in the sandbox: principals are data. Roles with their permissions, users, role assignments
 * (enterprise-wide or per organization), service users with their hashed credentials, and IdP groups mapped to
 * roles live in the store; the dispatcher authenticates every request against these rows
 * (`lookupCredential`), so a credential created through the API works at once with exactly its role's
 * permissions, at the level of its assignment.
 */
import type { SandboxModule } from '../../context';
import { idpGroupHandlers } from './idp-groups';
import { ensureMembers, seedMembers } from './seed';
import { serviceUserHandlers } from './service-users';
import { MEMBERS_MIGRATIONS } from './store';
import { userHandlers } from './users';

export const membersModule: SandboxModule = {
  name: 'members',
  migrations: MEMBERS_MIGRATIONS,
  seed: seedMembers,
  ensure: ensureMembers,
  handlers: { ...userHandlers, ...serviceUserHandlers, ...idpGroupHandlers },
};
