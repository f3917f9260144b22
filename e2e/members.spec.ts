/**
 * Members and access, as an admin uses them: invite two people and find them in the list; create a service
 * user, copy its credential and use it against the upstream (the embedded sandbox, called directly as a program
 * would), change its role, then delete it and see the credential refused; register IdP groups in bulk, and give
 * a group a role at the enterprise level and in an organization, change it and remove it; answer "who holds
 * ManageGitIntegrations in this organization" on the effective-access screen, checked against the API; and,
 * with roles answered as the vendor does (no permissions, no is_built_in), see the screens say what the API
 * does not publish instead of 0, "No" or "Built-in".
 */
import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import { parseCsvRecords } from '../src/lib/csv';
import { expect, firstOrgId, test } from './fixtures';

/** The embedded sandbox of this run (playwright.config.ts fixes its port). */
const SANDBOX = `http://127.0.0.1:${process.env.E2E_SANDBOX_PORT}`;

/** A token unique to this run, so that reruns on the same data dir do not collide. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

interface Page_<T> {
  items: T[];
  end_cursor: string | null;
  has_next_page: boolean;
}

/** Every item of a list, through the console's proxy (the console's own credential, the admin). */
async function readAll<T>(request: APIRequestContext, path: string): Promise<T[]> {
  const items: T[] = [];
  let after: string | null = null;
  for (let i = 0; i < 50; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await request.get(`${path}${sep}first=100${after ? `&after=${encodeURIComponent(after)}` : ''}`);
    expect(res.status(), path).toBe(200);
    const page = (await res.json()) as Page_<T>;
    items.push(...page.items);
    if (!page.has_next_page || !page.end_cursor) break;
    after = page.end_cursor;
  }
  return items;
}

/** Chooses an option of one of the console's selects (a Radix select: a combobox button and a listbox). */
async function choose(page: Page, label: string | RegExp, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

test.describe('members', () => {
  test('invite two people, then find them in the list', async ({ page, request }) => {
    const a = `e2e-${RUN}-ada@example.com`;
    const b = `e2e-${RUN}-grace@example.com`;
    await page.goto('/members');
    await expect(page.getByRole('heading', { level: 1, name: 'Members' })).toBeVisible();
    await page.getByRole('button', { name: 'Invite members' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite members' });
    const box = dialog.getByRole('textbox', { name: /Email addresses/ });

    // A malformed address is flagged and nothing is sent.
    await box.fill(`${a}\nnot-an-address`);
    await expect(dialog.getByTestId('invite-preview')).toContainText('1 malformed');
    await dialog.getByRole('button', { name: 'Send invitations' }).click();
    await expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(
      (await request.get(`/api/v3/enterprise/members/users?email=${encodeURIComponent(a)}`).then((r) => r.json()))
        .items,
    ).toEqual([]);

    // Two addresses, one repeated in another letter case: two invitations.
    await box.fill(`Ada <${a}>\n${b}, ${b.toUpperCase()}`);
    await expect(dialog.getByText('2 / 100 addresses')).toBeVisible();
    await expect(dialog.getByTestId('invite-preview')).toContainText('2 valid addresses · 1 repeated (sent once)');
    await expect(dialog.getByRole('combobox', { name: /Enterprise role/ })).toContainText('Enterprise Member');
    await dialog.getByRole('button', { name: 'Send invitations' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Invited 2 people', { exact: true })).toBeVisible();

    // A whole address is looked up by the API; part of one filters every page in the browser.
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill(a);
    await expect(page).toHaveURL(new RegExp(`q=${encodeURIComponent(a).replace(/\./g, '\\.')}`));
    const table = page.getByRole('table', { name: 'Members' });
    await expect(table.getByText(a)).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(2);
    await search.fill(`e2e-${RUN}-`);
    await expect(table.getByText(a)).toBeVisible();
    await expect(table.getByText(b)).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByRole('row', { name: new RegExp(b.replace(/\./g, '\\.')) })).toContainText(
      'Enterprise Member',
    );

    // The API agrees: both are members, with the enterprise role chosen.
    for (const email of [a, b]) {
      const body = (await request
        .get(`/api/v3/enterprise/members/users?email=${encodeURIComponent(email)}`)
        .then((r) => r.json())) as { items: Array<{ role_assignments: Array<{ role: { role_id: string } }> }> };
      expect(body.items).toHaveLength(1);
      expect(body.items[0]!.role_assignments.map((x) => x.role.role_id)).toEqual(['role-enterprise-member']);
    }
  });
});

test.describe('service users', () => {
  test('create one, copy its credential and use it upstream; delete it and see the credential refused', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
    const name = `e2e bot ${RUN}`;
    await page.goto('/service-users');
    await expect(page.getByRole('heading', { level: 1, name: 'Service users' })).toBeVisible();
    await page.getByRole('button', { name: 'New service user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New service user' });

    // The limits are the form's before the server's.
    const lifetime = dialog.getByRole('spinbutton', { name: /Lifetime/ });
    await lifetime.fill('366');
    await lifetime.blur();
    await expect(dialog.getByText('A lifetime is at most 365 days')).toBeVisible();
    await dialog.getByRole('textbox', { name: /Name/ }).fill(name);
    await expect(dialog.getByText(`${name.length} / 256`)).toBeVisible();

    // Only the roles the console's credential may grant are offered, and the others are explained.
    await dialog.getByRole('combobox', { name: /^Role/ }).click();
    await expect(page.getByRole('option', { name: /Enterprise Admin/ })).toHaveCount(0);
    await page.getByRole('option', { name: /Platform Automation/ }).click();
    await dialog.getByText(/roles are not offered — why/).click();
    await expect(
      dialog.getByText(
        /Enterprise Admin: holds ManageAccountServiceUsers and ManageOrgServiceUsers, which can never be granted/,
      ),
    ).toBeVisible();
    await lifetime.fill('7');
    await dialog.getByRole('button', { name: 'Create service user' }).click();

    // The credential, once: copied with the button.
    const shown = page.getByRole('dialog', { name: `${name} created` });
    await expect(shown.getByText('Copy the credential now: it is shown only this once.')).toBeVisible();
    const field = shown.getByRole('textbox', { name: 'Credential' });
    const credential = await field.inputValue();
    expect(credential).toMatch(/^cog_[0-9a-f]{40}$/);
    await shown.getByRole('button', { name: 'Copy' }).click();
    await expect(shown.getByText('Copied to the clipboard.')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(credential);

    // It works upstream at once, with exactly its role's permissions.
    const call = (path: string) => fetch(`${SANDBOX}${path}`, { headers: { authorization: `Bearer ${credential}` } });
    const self = await call('/v3/self');
    expect(self.status).toBe(200);
    const who = (await self.json()) as { service_user_name: string; service_user_id: string };
    expect(who.service_user_name).toBe(name);
    expect((await call('/v3/enterprise/organizations?first=1')).status).toBe(200);
    expect((await call('/v3/enterprise/members/users?first=1')).status).toBe(403);

    // Closed, it is never shown again; the list shows it, its expiry warned about.
    await shown.getByRole('button', { name: /I have stored it/ }).click();
    await expect(shown).toBeHidden();
    await expect(page.getByRole('textbox', { name: 'Credential' })).toHaveCount(0);
    const row = page
      .getByRole('table', { name: 'Service users', exact: true })
      .getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('Platform Automation');
    await expect(row).toContainText('Active, expiring');
    await expect(row).toContainText(/Ends in 7 days|Ends next week/);
    const listed = await request.get(`/api/v3/enterprise/members/service-users/${who.service_user_id}`);
    expect(listed.status()).toBe(200);
    expect(JSON.stringify(await listed.json())).not.toContain(credential);

    // Its role changed on the screen: the API agrees, and the credential holds the new role's permissions.
    await row.getByRole('button', { name: `Change role of ${name}` }).click();
    const roleDialog = page.getByRole('dialog', { name: `Change the enterprise role of ${name}` });
    await expect(roleDialog.getByText('It holds Platform Automation now.')).toBeVisible();
    await roleDialog.getByRole('combobox', { name: /^Enterprise role/ }).click();
    await expect(page.getByRole('option', { name: /Enterprise Admin/ })).toHaveCount(0);
    await page.getByRole('option', { name: /^Enterprise Viewer/ }).click();
    await roleDialog.getByRole('button', { name: 'Save role' }).click();
    await expect(roleDialog).toBeHidden();
    await expect(page.getByText(`${name} is now Enterprise Viewer`, { exact: true })).toBeVisible();
    await expect(row).toContainText('Enterprise Viewer');
    const changed = (await (
      await request.get(`/api/v3/enterprise/members/service-users/${who.service_user_id}`)
    ).json()) as {
      role_assignments: Assignment[];
    };
    expect(changed.role_assignments.map((x) => [x.role.role_id, x.org_id ?? null])).toEqual([
      ['role-enterprise-viewer', null],
    ]);

    // Deleted behind a typed confirmation: the credential is refused from then on.
    await row.getByRole('button', { name: `Delete ${name}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete ${name}?` });
    const go = confirm.getByRole('button', { name: 'Delete service user' });
    await expect(go).toBeDisabled();
    await confirm.getByRole('textbox', { name: /Type .* to confirm/ }).fill(name);
    await go.click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText(`${name} deleted; its credential no longer works`, { exact: true })).toBeVisible();
    await expect(row).toHaveCount(0);
    expect((await call('/v3/self')).status).toBe(401);
    const gone = (await (
      await request.get(`/api/v3/enterprise/members/service-users/${who.service_user_id}`)
    ).json()) as {
      deleted_at: number | null;
    };
    expect(gone.deleted_at).toEqual(expect.any(Number));
  });
});

test.describe('IdP groups', () => {
  test('register in bulk from a pasted list, then delete one', async ({ page, request }) => {
    const names = [`e2e-${RUN}-platform`, `e2e-${RUN}-security`, `e2e-${RUN}-data, analytics`];
    await page.goto('/idp-groups');
    await expect(page.getByRole('heading', { level: 1, name: 'IdP groups' })).toBeVisible();
    await page.getByRole('button', { name: 'Register groups' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register IdP groups' });
    const box = dialog.getByRole('textbox', { name: /Group names/ });

    // A malformed name stops the form.
    await box.fill(`${names[0]}\nteam/a`);
    await expect(dialog.getByTestId('register-preview')).toContainText('1 malformed');
    await dialog.getByRole('button', { name: 'Register groups' }).click();
    await expect(box).toHaveAttribute('aria-invalid', 'true');

    await box.fill([...names, names[1]!.toUpperCase(), 'all-engineering'].join('\n'));
    await expect(dialog.getByText('4 / 100 groups')).toBeVisible();
    await expect(dialog.getByTestId('register-preview')).toContainText(
      '3 new groups · 1 already registered (ignored) · 1 repeated (sent once)',
    );
    await dialog.getByRole('button', { name: 'Register groups' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Registered 3 IdP groups', { exact: true })).toBeVisible();
    const table = page.getByRole('table', { name: 'IdP groups' });
    for (const n of names) await expect(table.getByRole('cell', { name: n, exact: true })).toBeVisible();

    const listed = await readAll<{ idp_group_name: string }>(request, '/api/v3/enterprise/idp-groups');
    expect(listed.map((g) => g.idp_group_name)).toEqual(expect.arrayContaining(names));

    await table.getByRole('button', { name: `Delete ${names[2]}` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Delete the IdP group ${names[2]}?` });
    await confirm.getByRole('button', { name: 'Delete group' }).click();
    await expect(confirm).toBeHidden();
    await expect(table.getByRole('cell', { name: names[2], exact: true })).toHaveCount(0);
    const after = await readAll<{ idp_group_name: string }>(request, '/api/v3/enterprise/idp-groups');
    expect(after.map((g) => g.idp_group_name)).not.toContain(names[2]);
  });

  test('give a group a role at the enterprise level and in an organization, change it, remove it', async ({
    page,
    request,
  }) => {
    const group = `e2e-${RUN}-roles`;
    expect((await request.post('/api/v3/enterprise/idp-groups', { data: { idp_group_names: [group] } })).status()).toBe(
      200,
    );
    const orgId = await firstOrgId(request);
    const org = (await (await request.get(`/api/v3/enterprise/organizations/${orgId}`)).json()) as { name: string };
    const enterpriseRole = async () =>
      (
        (await (await request.get(`/api/v3/enterprise/members/idp-groups/${group}`)).json()) as {
          role_assignments: Assignment[];
        }
      ).role_assignments
        .filter((a) => !a.org_id)
        .map((a) => a.role.role_id);
    const orgRole = () => request.get(`/api/v3/enterprise/organizations/${orgId}/members/idp-groups/${group}`);

    await page.goto('/idp-groups');
    const table = page.getByRole('table', { name: 'IdP groups' });
    const row = table.getByRole('row', { name: new RegExp(group) });
    await expect(row.getByRole('cell').nth(1)).toHaveText('None');
    await row.getByRole('button', { name: `Roles of ${group}` }).click();
    const dialog = page.getByRole('dialog', { name: `Roles of ${group}` });

    // Enterprise-wide.
    await expect(dialog.getByTestId('group-enterprise-role')).toHaveText('No enterprise role now.');
    await choose(page, /^Enterprise role/, /^Enterprise Viewer/);
    await dialog.getByRole('button', { name: 'Give enterprise role' }).click();
    await expect(page.getByText(`${group}: enterprise role is now Enterprise Viewer`, { exact: true })).toBeVisible();
    await expect(dialog.getByTestId('group-enterprise-role')).toHaveText('Now: Enterprise Viewer');
    expect(await enterpriseRole()).toEqual(['role-enterprise-viewer']);

    // In one organization: given, then changed.
    await choose(page, 'Organization', org.name);
    await expect(dialog.getByTestId('group-org-role')).toHaveText(`No role in ${org.name} now.`);
    await choose(page, new RegExp(`^Role in ${org.name}`), /^Org Viewer/);
    await dialog.getByRole('button', { name: `Give role in ${org.name}` }).click();
    await expect(dialog.getByTestId('group-org-role')).toHaveText('Now: Org Viewer');
    await choose(page, new RegExp(`^Role in ${org.name}`), /^Org Member/);
    await dialog.getByRole('button', { name: `Change role in ${org.name}` }).click();
    await expect(dialog.getByTestId('group-org-role')).toHaveText('Now: Org Member');
    const inOrg = (await (await orgRole()).json()) as { role_assignments: Assignment[] };
    expect(inOrg.role_assignments.map((a) => a.role.role_id)).toEqual(['role-org-member']);

    // The table shows both levels.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(row).toContainText('Enterprise Viewer');
    await expect(row).toContainText(`Org Member · ${org.name}`);

    // Removed at each level: the group stays registered.
    await row.getByRole('button', { name: `Roles of ${group}` }).click();
    await dialog.getByRole('button', { name: 'Remove enterprise role' }).click();
    await expect(dialog.getByTestId('group-enterprise-role')).toHaveText('No enterprise role now.');
    expect(await enterpriseRole()).toEqual([]);
    await choose(page, 'Organization', org.name);
    await dialog.getByRole('button', { name: `Remove role in ${org.name}` }).click();
    await expect(dialog.getByTestId('group-org-role')).toHaveText(`No role in ${org.name} now.`);
    expect((await orgRole()).status()).toBe(404);
    const still = await readAll<{ idp_group_name: string }>(request, '/api/v3/enterprise/idp-groups');
    expect(still.map((g) => g.idp_group_name)).toContain(group);
  });
});

interface Assignment {
  role: { role_id: string };
  org_id?: string | null;
}

test.describe('effective access', () => {
  test('who holds ManageGitIntegrations in an organization, checked against the API', async ({ page, request }) => {
    const permission = 'ManageGitIntegrations';
    const orgId = await firstOrgId(request);
    const org = (await (await request.get(`/api/v3/enterprise/organizations/${orgId}`)).json()) as { name: string };

    // The answer computed here from the API's own lists.
    const roles = await readAll<{ role_id: string; permissions: string[] }>(request, '/api/v3/enterprise/roles');
    const grants = new Map(roles.map((r) => [r.role_id, new Set(r.permissions)]));
    const holds = (assignments: Assignment[]) =>
      assignments.some(
        (x) => (x.org_id == null || x.org_id === orgId) && grants.get(x.role.role_id)?.has(permission) === true,
      );
    const users = await readAll<{
      user_id: string;
      role_assignments: Assignment[];
      idp_role_assignments?: Assignment[];
    }>(request, '/api/v3/enterprise/members/users');
    const serviceUsers = await readAll<{ service_user_id: string; role_assignments: Assignment[] }>(
      request,
      '/api/v3/enterprise/members/service-users',
    );
    const expected = [
      ...users
        .filter((u) => holds([...u.role_assignments, ...(u.idp_role_assignments ?? [])]))
        .map((u) => `user:${u.user_id}`),
      ...serviceUsers.filter((s) => holds(s.role_assignments)).map((s) => `service_user:${s.service_user_id}`),
    ].sort();
    expect(expected.length).toBeGreaterThan(0);
    const people = expected.filter((k) => k.startsWith('user:')).length;

    // The question, asked on the screen.
    await page.goto('/access');
    await expect(page.getByRole('heading', { level: 1, name: 'Effective access' })).toBeVisible();
    await page.getByRole('tab', { name: 'By permission' }).click();
    await choose(page, 'Permission', permission);
    await choose(page, 'Organization', org.name);
    await expect(page).toHaveURL(
      new RegExp(`permission=${permission}.*org=${orgId}|org=${orgId}.*permission=${permission}`),
    );
    await expect(page.getByTestId('holders-summary')).toHaveText(
      `${expected.length} hold ${permission} in ${org.name}: ${people} ${people === 1 ? 'person' : 'people'} and ${
        expected.length - people
      } ${expected.length - people === 1 ? 'service user' : 'service users'}.`,
    );

    // The access review's CSV names exactly the same principals.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`^access-review-${permission}-${orgId}-.*\\.csv$`));
    const records = parseCsvRecords(await readFile((await download.path())!, 'utf8'));
    expect(records[0]?.slice(0, 2)).toEqual(['principal_type', 'principal_id']);
    const fromCsv = [...new Set(records.slice(1).map((r) => `${r[0]}:${r[1]}`))].sort();
    expect(fromCsv).toEqual(expected);
    expect(records.slice(1).every((r) => r[4] === permission && (r[6] === '' || r[6] === orgId))).toBe(true);

    // And one holder, looked at the other way round, holds it there through the role the CSV names.
    const first = records[1]!;
    await page.goto(`/access?principal=${first[0]}:${first[1]}`);
    const table = page.getByRole('table', { name: /^Permissions of / });
    await expect(table.getByRole('row', { name: new RegExp(`${permission}.*${first[9]}`) }).first()).toBeVisible();
  });
});

test.describe('roles whose permissions the API does not publish', () => {
  test('roles, the matrix and effective access say what is not published, and count nothing', async ({
    page,
    request,
  }) => {
    // The vendor's Role is {role_id, role_name, role_type}: the sandbox's extensions are taken off its answers.
    await page.route(/\/api\/v3\/enterprise\/(roles|members\/users|members\/service-users)(\?|$)/, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { items: Array<Record<string, unknown>> };
      const strip = (r: Record<string, unknown>) => {
        delete r.permissions;
        delete r.is_built_in;
      };
      for (const item of body.items) {
        strip(item);
        for (const a of (item.role_assignments ?? []) as Array<{ role: Record<string, unknown> }>) strip(a.role);
        for (const a of (item.idp_role_assignments ?? []) as Array<{ role: Record<string, unknown> }>) strip(a.role);
      }
      await route.fulfill({ response, json: body });
    });

    await page.goto('/roles');
    const table = page.getByRole('table', { name: 'Roles' });
    const admin = table.getByRole('row', { name: /Enterprise Admin/ });
    await expect(admin).toContainText('Permissions not published by this API');
    await expect(admin).not.toContainText('Built-in');
    await expect(admin).not.toContainText('Custom');
    await expect(table.getByText('Built-in')).toHaveCount(0);
    await page.getByRole('tab', { name: 'Matrix' }).click();
    await expect(page.getByText('Permissions not published by this API', { exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Roles and permissions matrix' })).toHaveCount(0);

    // Effective access names the roles held, where and how, and no permission count.
    const someone = (
      (await (await request.get('/api/v3/enterprise/members/users?first=100')).json()) as {
        items: Array<{ user_id: string; role_assignments: Assignment[] }>;
      }
    ).items.find((u) => u.role_assignments.length > 0)!;
    await page.goto(`/access?principal=user:${someone.user_id}`);
    const summary = page.getByTestId('principal-summary');
    await expect(summary).toContainText(
      /holds \d+ roles?; which permissions (it grants|they grant) cannot be established/,
    );
    await expect(summary).not.toContainText('permission in');
    await expect(page.getByTestId('access-gaps')).toContainText('The API does not publish the permissions of');
    await expect(page.getByRole('table', { name: /^Roles of / })).toContainText(/Enterprise-wide|Direct|IdP group/);
    await expect(page.getByRole('table', { name: /^Permissions of / })).toHaveCount(0);

    await page.getByRole('tab', { name: 'By permission' }).click();
    await choose(page, 'Permission', 'ManageGitIntegrations');
    await expect(page.getByTestId('holders-summary')).toContainText('cannot be fully established');
    await expect(page.getByTestId('holders-summary')).not.toContainText(/\d/);
    await expect(page.getByText(/Nobody holds/)).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'Roles held at the enterprise level' })).toBeVisible();
  });
});

test.describe('one member', () => {
  test('opens an organization member’s page from the organization’s members list', async ({ page, request }) => {
    const orgId = await firstOrgId(request);
    const members = (
      await readAll<{ user_id: string; email: string | null }>(
        request,
        `/api/v3beta1/organizations/${orgId}/members/users`,
      )
    ).filter((u) => u.email);
    const member = members[0]!;
    await page.goto(`/orgs/${orgId}/members`);
    await page.getByRole('table', { name: 'Members' }).getByRole('link', { name: member.email!, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/members/${member.user_id}\\?org=${orgId}`));
    await expect(page.getByRole('heading', { level: 1, name: member.email! })).toBeVisible();
    await expect(page.getByText(/^Member of /)).toBeVisible();
    await expect(page.getByText(/^Direct role in /)).toBeVisible();
    // Someone who is not a member there: the API's 404, said in place.
    await page.goto(`/members/user-not-a-member-${RUN}?org=${orgId}`);
    await expect(page.getByRole('alert')).toBeVisible();
  });
});
