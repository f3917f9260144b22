/**
 * The journeys of members, roles, service users, IdP groups, effective access, limits, the organization's members,
 * notes and schedules against a console whose sandbox answers exactly the vendor's shapes at the vendor's paths
 * (`SANDBOX_SHAPE=vendor`, the `vendor-shape` project of playwright.config.ts): the console has to find the
 * vendor's paths (`acu-limits/devin`, `/v3/enterprise/organizations/{org_id}/members/…`), send what the vendor
 * accepts, and say nothing the vendor's answers do not say (no permission counts, no "Built-in", no "No role yet").
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, firstOrgId, test } from './fixtures';

const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** What no screen may say when the answer did not say it. */
const UNFOUNDED = [/\b0 permissions\b/, /holds 0 permissions/, /No role yet/, /Nobody holds/, /Not found/];

async function expectNothingUnfounded(page: Page) {
  const text = await page.locator('main').innerText();
  for (const re of UNFOUNDED) expect(text, `the screen says ${re}`).not.toMatch(re);
}

/** Chooses an option of one of the console's selects (a Radix select: a combobox button and a listbox). */
async function choose(page: Page, label: string | RegExp, option: string | RegExp) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

async function orgName(request: APIRequestContext, orgId: string): Promise<string> {
  return ((await (await request.get(`/api/v3/enterprise/organizations/${orgId}`)).json()) as { name: string }).name;
}

test.describe('against the vendor-shaped sandbox', () => {
  test('the sandbox answers in the vendor shape at the vendor paths only', async ({ request }) => {
    const roles = (await (await request.get('/api/v3/enterprise/roles?first=5')).json()) as {
      items: Array<Record<string, unknown>>;
    };
    expect(roles.items.length).toBeGreaterThan(0);
    for (const r of roles.items) expect(Object.keys(r).sort()).toEqual(['role_id', 'role_name', 'role_type']);
    // The spec's path is not served there (404 or 405: either tells the console to try the vendor's).
    expect([404, 405]).toContain((await request.get('/api/v3/enterprise/consumption/acu-limits/agent')).status());
    expect((await request.get('/api/v3/enterprise/consumption/acu-limits/devin')).status()).toBe(200);
  });

  test('roles and members: shown, with nothing derived from what the API does not publish', async ({
    page,
    request,
  }) => {
    await page.goto('/roles');
    const roles = page.getByRole('table', { name: 'Roles' });
    const admin = roles.getByRole('row', { name: /Enterprise Admin/ });
    await expect(admin).toContainText('Permissions not published by this API');
    await expect(roles.getByText('Built-in', { exact: true })).toHaveCount(0);
    await expect(roles.getByText('Custom', { exact: true })).toHaveCount(0);
    await expectNothingUnfounded(page);

    await page.goto('/members');
    const members = page.getByRole('table', { name: 'Members' });
    await expect(members.getByRole('row').nth(1)).toContainText('@');
    await expect(members.getByText('Not published').first()).toBeVisible();
    await expectNothingUnfounded(page);

    // The organization's members: read at the vendor's path, which the console has to find.
    const orgId = await firstOrgId(request);
    const vendorRead = page.waitForResponse(
      (r) => r.url().includes(`/api/v3/enterprise/organizations/${orgId}/members/users`) && r.status() === 200,
    );
    await page.goto(`/orgs/${orgId}/members`);
    await vendorRead;
    await expect(page.getByRole('table').first().getByRole('row').nth(1)).toContainText('@');
    await expectNothingUnfounded(page);

    // Effective access: who holds which role, where and how; no permission it cannot establish.
    const someone = (
      (await (await request.get('/api/v3/enterprise/members/users?first=100')).json()) as {
        items: Array<{ user_id: string; role_assignments: unknown[] }>;
      }
    ).items.find((u) => u.role_assignments.length > 0)!;
    await page.goto(`/access?principal=user:${someone.user_id}`);
    await expect(page.getByTestId('principal-summary')).toContainText('cannot be established');
    await expect(page.getByRole('table', { name: /^Roles of / })).toContainText(/Enterprise-wide|Direct|IdP group/);
    await expect(page.getByRole('table', { name: /^Permissions of / })).toHaveCount(0);
    await expectNothingUnfounded(page);
  });

  test("service users and IdP groups: listed at the vendor's paths, roles given and changed", async ({
    page,
    request,
  }) => {
    // A service user to work on (created at the spec's provisioning path, which the vendor document leaves out).
    const name = `vendor bot ${RUN}`;
    const created = await request.post('/api/v3beta1/enterprise/service-users', {
      data: { name, role_id: 'role-enterprise-viewer' },
    });
    expect(created.ok()).toBe(true);

    await page.goto('/service-users');
    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('Enterprise Viewer');
    await expect(page.getByRole('row', { name: /Sandbox Admin/ })).toBeVisible();
    await expectNothingUnfounded(page);
    await row.getByRole('button', { name: `Change role of ${name}` }).click();
    const roleDialog = page.getByRole('dialog', { name: `Change the enterprise role of ${name}` });
    await choose(page, /^Enterprise role/, /^Enterprise Member/);
    await roleDialog.getByRole('button', { name: 'Save role' }).click();
    await expect(roleDialog).toBeHidden();
    await expect(row).toContainText('Enterprise Member');

    const orgId = await firstOrgId(request);
    await page.goto(`/orgs/${orgId}/service-users`);
    await expect(page.getByRole('heading', { level: 1, name: /Service users/ })).toBeVisible();
    await expectNothingUnfounded(page);

    // An IdP group: its enterprise role given on the screen, read back from the vendor's role-mapping path.
    const group = `vendor-${RUN}`;
    expect((await request.post('/api/v3/enterprise/idp-groups', { data: { idp_group_names: [group] } })).status()).toBe(
      200,
    );
    const org = await orgName(request, orgId);
    await page.goto('/idp-groups');
    const groupRow = page.getByRole('table', { name: 'IdP groups' }).getByRole('row', { name: new RegExp(group) });
    await expect(groupRow.getByRole('cell').nth(1)).toHaveText('None');
    await groupRow.getByRole('button', { name: `Roles of ${group}` }).click();
    const dialog = page.getByRole('dialog', { name: `Roles of ${group}` });
    await choose(page, /^Enterprise role/, /^Enterprise Viewer/);
    await dialog.getByRole('button', { name: 'Give enterprise role' }).click();
    await expect(dialog.getByTestId('group-enterprise-role')).toHaveText('Now: Enterprise Viewer');
    await choose(page, 'Organization', org);
    await choose(page, new RegExp(`^Role in ${org}`), /^Org Viewer/);
    await dialog.getByRole('button', { name: `Give role in ${org}` }).click();
    await expect(dialog.getByTestId('group-org-role')).toHaveText('Now: Org Viewer');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(groupRow).toContainText('Enterprise Viewer');
    await expect(groupRow).toContainText(`Org Viewer · ${org}`);
    const mapped = (await (await request.get(`/api/v3/enterprise/members/idp-groups/${group}`)).json()) as {
      role_assignments: Array<{ role: { role_id: string }; org_id?: string | null }>;
    };
    expect(mapped.role_assignments.map((a) => a.role.role_id)).toEqual(['role-enterprise-viewer']);
    await expectNothingUnfounded(page);
  });

  test('limits, notes and schedules: read and written in the vendor dialect', async ({ page, request }) => {
    // Limits: the ACU limits come from acu-limits/devin.
    const limits = page.waitForResponse(
      (r) => r.url().includes('/api/v3/enterprise/consumption/acu-limits/devin') && r.status() === 200,
    );
    await page.goto('/settings/limits');
    await limits;
    await expect(page.getByRole('table', { name: 'ACU limits' }).getByRole('row').nth(1)).toBeVisible();
    await expectNothingUnfounded(page);

    // A note: created with the form; the vendor's `trigger` is what the sandbox reads.
    const orgId = await firstOrgId(request);
    const note = `Vendor note ${RUN}`;
    await page.goto(`/orgs/${orgId}/knowledge/new`);
    await page.getByLabel('Name').fill(note);
    await page.getByLabel('Trigger').fill('When the vendor shape is checked');
    await page.getByLabel('Body').fill('Say only what the API says.');
    const create = page.waitForRequest((r) => r.method() === 'POST' && /\/knowledge\/notes$/.test(r.url()));
    await page.getByRole('button', { name: 'Create note' }).click();
    expect((await create).postDataJSON()).toMatchObject({ trigger: 'When the vendor shape is checked' });
    await expect(page.getByRole('heading', { name: note })).toBeVisible();
    await expect(page.getByText('When the vendor shape is checked').first()).toBeVisible();

    // A schedule asked for disabled: created without `enabled`, then disabled; it reads disabled.
    const name = `Vendor schedule ${RUN}`;
    await page.goto(`/orgs/${orgId}/schedules/new`);
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Prompt').fill('Tidy the stale branches.');
    await page.getByRole('textbox', { name: 'Frequency' }).fill('0 6 * * 1');
    await page.getByRole('switch', { name: 'Enabled' }).click();
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect(page.getByRole('heading', { name })).toBeVisible();
    await expect(page.getByRole('switch', { name: `Enabled: ${name}` })).not.toBeChecked();
    const id = page.url().split('/').at(-1)!;
    const read = (await (await request.get(`/api/v3/organizations/${orgId}/schedules/${id}`)).json()) as {
      enabled: boolean;
      agent: string;
    };
    expect(read.enabled).toBe(false);
    expect(read.agent).toBe('devin');
  });
});
