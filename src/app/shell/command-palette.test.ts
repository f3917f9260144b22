/**
 * The command palette follows the person's console roles as the navigation does: a screen the roles (or the
 * credential) refuse stays listed, disabled, with the reason in words; the organization's screens are judged
 * in that organization.
 */
import { describe, expect, it } from 'vitest';
import { permissionVerdict } from '@/lib/principal';
import { screenResults } from './command-palette';

const self = { permissions: ['ViewAccountAuditLogs', 'ViewOrgSessions', 'ManageGitIntegrations', 'ManageBilling'] };
const operator = {
  roles: [{ role: 'operator', grant: 'email dana@example.com → operator' }],
  permissions: { ViewOrgSessions: ['org-a'], ManageGitIntegrations: ['org-a'], ManageBilling: '*' as const },
};
const check =
  (session: typeof operator | undefined) => (p: Parameters<typeof permissionVerdict>[2], org: string | null) =>
    permissionVerdict(self, session, p, org);

describe('the command palette and the person’s console roles', () => {
  it('disables the screens the roles refuse, saying why, and judges an organization’s screens there', () => {
    const names = new Map([['org-a', 'Acme']]);
    const byLabel = (orgId: string, label: string, prefix = 'screen') =>
      screenResults(orgId, names, check(operator)).find((r) => r.id === `${prefix}:${label}`)!;
    expect(byLabel('org-a', 'Audit logs').disabled).toBe(
      "Your console role does not allow ViewAccountAuditLogs across the enterprise (the console's policy refuses it)",
    );
    expect(byLabel('org-a', 'Git permissions', 'org-screen').disabled).toBeUndefined();
    expect(byLabel('org-b', 'Git permissions', 'org-screen').disabled).toBe(
      "Your console role does not allow ManageGitIntegrations in this organization (the console's policy refuses it)",
    );
    expect(byLabel('org-a', 'Usage').disabled).toBeUndefined();
    // What the credential lacks is told apart from what the roles refuse.
    expect(byLabel('org-a', 'Secrets', 'org-screen').disabled).toBe(
      "Your console role does not allow ManageOrgSecrets in this organization (the console's policy refuses it)",
    );
    const admin = {
      roles: [{ role: 'admin', grant: 'token → admin' }],
      permissions: { ManageOrgSecrets: '*' as const },
    };
    const secrets = screenResults('org-a', names, (p, org) => permissionVerdict(self, admin, p, org)).find(
      (r) => r.id === 'org-screen:Secrets',
    )!;
    expect(secrets.disabled).toBe(
      "Requires the ManageOrgSecrets permission, which the console's credential does not hold",
    );
    // Nothing known yet: every screen stays open (the server decides).
    expect(screenResults('org-a', names, () => ({ allowed: undefined })).every((r) => !r.disabled)).toBe(true);
  });
});
