/**
 * How a member and a service user are named in the tables that list both kinds (consumption per person, stale
 * access): the member's name with the email beneath it (an invited member without a name: the email, or a
 * phrase), the service user's name with its id beneath.
 */
import type { User } from '@/api/operations/members';
import type { ServiceUser } from '@/api/operations/service-users';

export interface PrincipalNaming {
  kind: 'member' | 'service_user';
  id: string;
  name: string;
  secondary: string | null;
}

export const memberNaming = (u: User): PrincipalNaming => ({
  kind: 'member',
  id: u.user_id,
  name: u.name?.trim() || u.email || 'Invited member (no name yet)',
  secondary: u.name?.trim() ? (u.email ?? null) : null,
});

export const serviceUserNaming = (su: ServiceUser): PrincipalNaming => ({
  kind: 'service_user',
  id: su.service_user_id,
  name: su.name,
  secondary: su.service_user_id,
});
