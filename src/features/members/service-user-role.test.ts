/** The level a service user's role is changed at, from what the answer says (sandbox or vendor shape). */
import { describe, expect, it } from 'vitest';
import type { ServiceUser } from '@/api/operations/service-users';
import { serviceUserLevel, serviceUserRoleAt } from './service-user-role';

const role = (role_id: string, role_type: 'enterprise' | 'org') => ({ role_id, role_name: role_id, role_type });
const su = (extra: Partial<ServiceUser>): ServiceUser => ({
  service_user_id: 'service-user-1',
  name: 'CI',
  role_assignments: [],
  ...extra,
});

describe('serviceUserLevel', () => {
  it('is the screen’s organization on an organization’s screen', () => {
    expect(serviceUserLevel(su({ org_id: null }), 'org-1')).toBe('org-1');
  });
  it('is where it was created when the answer says so (org_id null: the enterprise), whatever else it holds', () => {
    const both = [
      { role: role('e', 'enterprise'), org_id: null },
      { role: role('o', 'org'), org_id: 'org-2' },
    ];
    expect(serviceUserLevel(su({ org_id: null, role_assignments: both }), null)).toBeNull();
    expect(serviceUserLevel(su({ org_id: 'org-2', role_assignments: both }), null)).toBe('org-2');
  });
  it('without org_id (the vendor’s shape): the enterprise when it holds an enterprise role, else its role’s organization', () => {
    expect(serviceUserLevel(su({ role_assignments: [{ role: role('o', 'org'), org_id: 'org-3' }] }), null)).toBe(
      'org-3',
    );
    const s = su({ role_assignments: [{ role: role('e', 'enterprise') }] });
    expect(serviceUserLevel(s, null)).toBeNull();
    expect(serviceUserRoleAt(s, null)?.role_id).toBe('e');
    expect(serviceUserRoleAt(s, 'org-3')).toBeUndefined();
  });
});
