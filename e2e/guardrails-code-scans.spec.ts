/**
 * Guardrails, code scans and the enterprise-wide session page, as an admin uses them: filter violations by
 * guardrail through the URL and open the session of one; remediate three findings, one of them already being
 * remediated, and see two new sessions and one "already being remediated"; message a session opened from the
 * enterprise-wide sessions list.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';

interface Page_<T> {
  items: T[];
  end_cursor: string | null;
  has_next_page: boolean;
}

async function readAll<T>(request: APIRequestContext, path: string): Promise<T[]> {
  const items: T[] = [];
  let after: string | null = null;
  for (let i = 0; i < 50; i++) {
    const sep = path.includes('?') ? '&' : '?';
    const res = await request.get(`${path}${sep}first=200${after ? `&after=${encodeURIComponent(after)}` : ''}`);
    expect(res.status(), path).toBe(200);
    const page = (await res.json()) as Page_<T>;
    items.push(...page.items);
    if (!page.has_next_page || !page.end_cursor) break;
    after = page.end_cursor;
  }
  return items;
}

interface Finding {
  finding_id: string;
  title: string;
  repository: string;
  org_id: string;
  scan_id: string;
  remediation_session_id?: string | null;
  remediation_session_status?: string | null;
}

test('filter guardrail violations by guardrail through the URL, then open the session of one', async ({
  page,
  request,
}) => {
  const guardrails = await readAll<{ guardrail_id: string; name: string }>(
    request,
    '/api/v3beta1/enterprise/guardrails',
  );
  const g = guardrails.find((x) => x.name === 'Secrets in messages') ?? guardrails[0]!;
  await page.goto(`/guardrails?guardrail=${g.guardrail_id}`);
  await expect(page.getByRole('heading', { name: 'Guardrail violations', level: 1 })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Guardrail' })).toHaveText(g.name);

  const table = page.getByRole('table', { name: 'Guardrail violations' });
  const rows = table.getByRole('rowgroup').last().getByRole('row');
  await expect(rows.first()).toBeVisible();
  const count = await rows.count();
  expect(count).toBeGreaterThan(2);
  for (let i = 0; i < Math.min(count, 8); i++) await expect(rows.nth(i)).toContainText(g.name);
  // Another guardrail's name never shows in the rows.
  const other = guardrails.find((x) => x.guardrail_id !== g.guardrail_id)!;
  await expect(table.getByText(other.name, { exact: true })).toHaveCount(0);

  // The chart says which day boundary it counts by, and has a table view.
  await expect(
    page
      .getByText(/Billing days start at 08:00 UTC/)
      .filter({ visible: true })
      .first(),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Table', exact: true }).click();
  await expect(page).toHaveURL(/chart=table/);
  await expect(page.getByRole('columnheader', { name: 'Billing day' })).toBeVisible();

  // The triggering message expands, with the reasoning.
  await rows.first().locator('summary').click();
  await expect(rows.first().getByText('Reasoning:')).toBeVisible();

  const link = rows.first().getByRole('link', { name: /^Open session session-/ });
  const sessionId = (await link.textContent())!.trim();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${sessionId}$`));
  await expect(page.getByRole('heading', { name: 'Thread' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Live status' })).toBeVisible();
});

test('remediate three findings, one already being remediated: two new sessions and one 409 shown as in progress', async ({
  page,
  request,
}) => {
  const findings = await readAll<Finding>(request, '/api/v3/enterprise/code-scans/findings');
  const byRepo = new Map<string, Finding[]>();
  for (const f of findings) byRepo.set(f.repository, [...(byRepo.get(f.repository) ?? []), f]);
  const [repo, list] = [...byRepo].find(
    ([, fs]) => fs.filter((f) => !f.remediation_session_id).length >= 2 && fs.some((f) => f.remediation_session_id),
  )!;
  const fresh = list.filter((f) => !f.remediation_session_id).slice(0, 2);
  const already = list.find((f) => f.remediation_session_id)!;

  await page.goto(`/code-scans?repository=${encodeURIComponent(repo)}`);
  await expect(page.getByRole('heading', { name: 'Code-scan findings', level: 1 })).toBeVisible();
  for (const f of [...fresh, already]) {
    await page.getByRole('checkbox', { name: `Select ${f.finding_id}: ${f.title}` }).check();
  }
  await page.getByRole('button', { name: 'Remediate 3 findings' }).click();
  await page.getByRole('button', { name: 'Launch 3 remediations' }).click();

  const results = page.getByRole('region', { name: 'Remediation results' });
  await expect(results.getByRole('status')).toHaveText('2 remediations started, 1 already being remediated.');
  const items = results.getByRole('listitem');
  await expect(items).toHaveCount(3);
  await expect(results.getByText('Remediation started')).toHaveCount(2);
  const alreadyItem = items.filter({ hasText: already.finding_id });
  await expect(alreadyItem.getByText('Already being remediated')).toBeVisible();
  await expect(alreadyItem.getByRole('link', { name: `Open session ${already.remediation_session_id}` })).toBeVisible();
  await expect(results.getByText('Failed')).toHaveCount(0);

  // The two new sessions exist, in the findings' organization, as remediations.
  for (const f of fresh) {
    const link = items.filter({ hasText: f.finding_id }).getByRole('link', { name: /^Open session session-/ });
    const sessionId = (await link.textContent())!.replace('Open session', '').trim();
    const res = await request.get(`/api/v3/enterprise/sessions/${sessionId}`);
    expect(res.status()).toBe(200);
    expect(((await res.json()) as { origin: string }).origin).toBe('code_scan_remediation');
    // The list links the finding to its remediation session, whose status shows live.
    await expect(
      page
        .getByRole('table', { name: 'Code-scan findings' })
        .getByRole('link', { name: `Remediation session ${sessionId}` }),
    ).toBeVisible();
  }

  // The existing session opens on the enterprise-wide session page.
  await alreadyItem.getByRole('link', { name: `Open session ${already.remediation_session_id}` }).click();
  await expect(page).toHaveURL(new RegExp(`/sessions/${already.remediation_session_id}$`));
  await expect(page.getByRole('heading', { name: /^Remediate: / })).toBeVisible();
});

test('open a session from the enterprise-wide list and message it there', async ({ page }) => {
  await page.goto('/sessions');
  const table = page.getByRole('table', { name: 'Sessions' });
  const first = table.getByRole('rowgroup').last().getByRole('row').first();
  const link = first.locator('[data-row-link]');
  const title = (await link.textContent())!.trim();
  await link.click();
  await expect(page).toHaveURL(/\/sessions\/session-[0-9a-f]+$/);
  await expect(page.getByRole('heading', { name: title.slice(0, 40), level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: '← All sessions' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Insights' })).toBeVisible();

  const text = `From the enterprise page ${Date.now()}`;
  await page.getByLabel('Message', { exact: true }).fill(text);
  const sent = page.waitForRequest(
    (r) => r.method() === 'POST' && /\/api\/v3\/enterprise\/sessions\/session-[0-9a-f]+\/messages$/.test(r.url()),
  );
  await page.getByRole('button', { name: /^Send (message|and resume)$/ }).click();
  await sent;
  await expect(page.getByText('Message sent.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Thread' }).getByText(text)).toBeVisible();
});

test('a finding whose remediation runs: Remediate disabled with the reason in text; its organization and scan named; searches name organizations', async ({
  page,
  request,
}) => {
  const findings = await readAll<Finding>(request, '/api/v3/enterprise/code-scans/findings');
  const f = findings.find((x) => x.remediation_session_id)!;
  const org = (await (await request.get(`/api/v3/enterprise/organizations/${f.org_id}`)).json()) as { name: string };
  // Its remediation session, held at "running" (the sandbox's sessions settle within seconds): the finding as
  // the page reads it, and the live status it polls.
  await page.route(`**/api/v3/enterprise/code-scans/findings/${f.finding_id}`, async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), remediation_session_status: 'running' } });
  });
  await page.route('**/api/v3/enterprise/sessions?*', async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { items: Array<{ session_id: string; status: string }> };
    for (const s of body.items) if (s.session_id === f.remediation_session_id) s.status = 'running';
    await route.fulfill({ response: res, json: body });
  });
  await page.goto(`/code-scans/${f.finding_id}`);
  await expect(page.getByRole('heading', { name: f.title, level: 1 })).toBeVisible();
  const remediate = page.getByRole('button', { name: 'Remediate', exact: true });
  await expect(remediate).toBeDisabled();
  await expect(remediate).toHaveAccessibleDescription(
    `A remediation is running (session ${f.remediation_session_id}, running): remediate again once it ends.`,
  );
  await expect(page.getByTestId('remediate-disabled-reason')).toBeVisible();
  const where = page.getByRole('region', { name: 'Remediation' });
  await expect(where.getByText(org.name, { exact: true })).toBeVisible();
  await expect(where.getByText(f.scan_id, { exact: true })).toBeVisible();
  await expect(where.getByText(new RegExp(`^${f.repository}, `))).toBeVisible();

  // Searches: the organization column reads its name beside the id.
  await page.goto('/searches');
  const table = page.getByRole('table', { name: 'Searches' });
  await expect(table.getByRole('columnheader', { name: 'Organization' })).toBeVisible();
  const firstOrg = table.getByRole('row').nth(1).getByText(/^org-/);
  const orgId = (await firstOrg.textContent())!;
  const name = ((await (await request.get(`/api/v3/enterprise/organizations/${orgId}`)).json()) as { name: string })
    .name;
  await expect(table.getByRole('row').nth(1)).toContainText(`${name} ${orgId}`);
});
