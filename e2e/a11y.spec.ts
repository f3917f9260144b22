/**
 * The accessibility sweep: axe-core on every screen, in the light and dark themes and at 390 px wide. A
 * serious or critical violation fails the test, naming the screen, the rule and the first nodes. Each test walks
 * half of the routes in one page: the first is loaded, the others are reached as a link reaches them
 * (`history.pushState`, which the router follows), so the app boots and axe is parsed once per test. The dark
 * theme runs the rules that read colours (its DOM is the light one's); the light theme and the phone width
 * (whose cards are another DOM) run all, with WCAG 2.5.3 "label in name" (`label-content-name-mismatch`, which
 * axe counts as experimental and runs only when asked). Every screen is also checked for being wider than the
 * window (a page that scrolls sideways), and a few dialogs are checked open: the command palette, the shortcuts,
 * the IP access list's "Add ranges" and, on a phone, the header's menu.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

async function ids(request: APIRequestContext) {
  const json = async (path: string) =>
    (await (await request.get(path)).json()) as { items: Array<Record<string, string>> };
  const orgId = (await json('/api/v3/enterprise/organizations?first=1')).items[0]!.org_id!;
  const sessionId = (await json(`/api/v3/organizations/${orgId}/sessions?first=1`)).items[0]!.session_id!;
  const noteId = (await json(`/api/v3/organizations/${orgId}/knowledge/notes?first=1`)).items[0]?.note_id;
  const enterpriseNoteId = (await json('/api/v3/enterprise/knowledge/notes?first=1')).items[0]?.note_id;
  const playbookId = (await json('/api/v3/enterprise/playbooks?first=1')).items[0]?.playbook_id;
  const orgPlaybookId = (await json(`/api/v3/organizations/${orgId}/playbooks?first=1`)).items[0]?.playbook_id;
  const findingId = (await json('/api/v3/enterprise/code-scans/findings?first=1')).items[0]?.finding_id;
  const scheduleId = (await json(`/api/v3/organizations/${orgId}/schedules?first=1`)).items[0]?.schedule_id;
  return { orgId, sessionId, noteId, enterpriseNoteId, playbookId, orgPlaybookId, scheduleId, findingId };
}

function routes(x: Awaited<ReturnType<typeof ids>>): Array<[string, string]> {
  const org = `/orgs/${x.orgId}`;
  const list: Array<[string, string]> = [
    ['Organizations', '/'],
    ['Organization overview', org],
    ['Sessions', `${org}/sessions`],
    ['New session', `${org}/sessions/new`],
    ['Session', `${org}/sessions/${x.sessionId}`],
    ['Enterprise sessions', '/sessions'],
    ['Notes', `${org}/knowledge`],
    ['New note', `${org}/knowledge/new`],
    ['Enterprise notes', '/knowledge'],
    ['New enterprise note', '/knowledge/new'],
    ['Git permissions', `${org}/git-permissions`],
    ['Git permissions editor', `${org}/git-permissions/edit`],
    ['Git permission history', `${org}/git-permissions/history`],
    ['Indexing', `${org}/indexing`],
    ['Snapshot builds', `${org}/snapshot-builds`],
    ['Audit logs', '/audit-logs'],
    ['Git connections', '/git-connections'],
    ['Members', '/members'],
    ['Members, filtered', `/members?role=role-org-member&org=${x.orgId}`],
    ['Organization members', `${org}/members`],
    ['Organization members through IdP groups', `${org}/members?via=idp`],
    ['Roles', '/roles'],
    ['Roles matrix', '/roles?view=matrix'],
    ['Service users', '/service-users?inactive=true'],
    ['Organization service users', `${org}/service-users`],
    ['IdP groups', '/idp-groups'],
    ['Effective access', '/access?principal=service_user:service-user-ci-bot'],
    ['Effective access by permission', `/access?view=permission&permission=ManageGitIntegrations&org=${x.orgId}`],
    ['Limits', '/settings/limits'],
    ['Session tags', `${org}/settings/tags`],
    ['IP access list', '/settings/ip-access-list'],
    ['IP access list history', '/settings/ip-access-list/history'],
    ['Guardrail violations', '/guardrails'],
    ['Organization guardrail violations', `${org}/guardrails`],
    ['Code-scan findings', '/code-scans'],
    ['Enterprise session', `/sessions/${x.sessionId}`],
    ['Doctor', '/doctor'],
    ['Usage', '/usage'],
    ['Organization usage', `${org}/usage`],
    ['Capacity', '/capacity?status=all'],
    ['Searches', '/searches'],
    ['Organization searches', `${org}/searches`],
    ['Playbooks', '/playbooks'],
    ['New playbook', '/playbooks/new'],
    ['Organization playbooks', `${org}/playbooks`],
    ['New organization playbook', `${org}/playbooks/new`],
    ['Secrets', `${org}/secrets`],
    ['Schedules', `${org}/schedules`],
    ['New schedule', `${org}/schedules/new`],
    ['Usage per person', '/usage/people'],
    ['Stale access', '/access-review'],
    ['Console activity', '/activity'],
    ['Configuration', '/settings/configuration'],
    ['Notifications', '/alerts'],
    ['Alert rules', '/alerts/rules'],
    ['Alert webhooks', '/alerts/webhooks'],
    ['Not found', '/no/such/page'],
  ];
  if (x.playbookId)
    list.push(['Playbook', `/playbooks/${x.playbookId}`], ['Edit playbook', `/playbooks/${x.playbookId}/edit`]);
  if (x.orgPlaybookId) list.push(['Organization playbook', `${org}/playbooks/${x.orgPlaybookId}`]);
  if (x.findingId) list.push(['Code-scan finding', `/code-scans/${x.findingId}`]);
  if (x.scheduleId) {
    list.push(
      ['Schedule', `${org}/schedules/${x.scheduleId}`],
      ['Edit schedule', `${org}/schedules/${x.scheduleId}/edit`],
    );
  }
  if (x.noteId) list.push(['Note', `${org}/knowledge/${x.noteId}`], ['Edit note', `${org}/knowledge/${x.noteId}/edit`]);
  if (x.enterpriseNoteId) list.push(['Enterprise note', `/knowledge/${x.enterpriseNoteId}`]);
  return list;
}

/**
 * The rules each mode runs. The dark theme renders the same DOM as the light one with other colours, so it
 * runs the rules that read colours; the light theme and the phone width (whose cards are another DOM) run all.
 */
const ALL_RULES = { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] };
const COLOUR_RULES = { type: 'rule', values: ['color-contrast', 'link-in-text-block'] };

/** One axe run over the page as it is: its serious and critical violations, described for the failure message. */
async function check(page: Page, name: string, path: string, runOnly: typeof ALL_RULES, label = ''): Promise<string[]> {
  // Colours at rest: after a theme switch, controls with a colour transition are still on their way.
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
  );
  const violations = await page.evaluate(async (runOnly) => {
    const axe = (
      window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly,
      // WCAG 2.5.3: a control's accessible name contains its visible text. Experimental in axe: enabled by name.
      rules: { 'label-content-name-mismatch': { enabled: true } },
      // Violations only: axe skips collecting every passing node (the slow part on long lists).
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })),
    }));
  }, runOnly);
  // No page wider than the window: content that overflows makes the whole page scroll sideways.
  const overflow = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    window: document.documentElement.clientWidth,
  }));
  const wide =
    overflow.page > overflow.window
      ? [`${name}${label} (${path}): the page is ${overflow.page} px wide in a ${overflow.window} px window`]
      : [];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${name}${label} (${path}): ${v.id} [${v.impact}] ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`,
    )
    .concat(wide);
}

/**
 * Dialogs checked open, on the screen named: each opens as a person opens it, is checked, and closes with
 * Escape (focus goes back where it was). `phone`: only at the phone width (the header's menu exists there only).
 */
const DIALOGS: Array<{ on: string; label: string; phone?: boolean; open: (page: Page) => Promise<void> }> = [
  {
    on: '/',
    label: 'command palette',
    open: async (page) => {
      await page.keyboard.press('Control+k');
      await page.getByRole('textbox', { name: 'Search screens, organizations, sessions and notes' }).fill('se');
      await expect(page.getByRole('option').first()).toBeVisible();
    },
  },
  {
    on: '/',
    label: 'keyboard shortcuts',
    open: async (page) => {
      await page.locator('main').focus();
      await page.keyboard.press('?');
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    },
  },
  {
    on: '/',
    label: 'header menu',
    phone: true,
    open: async (page) => {
      await page.getByRole('button', { name: 'More: times, theme and sign out' }).click();
      await expect(page.getByRole('menu')).toBeVisible();
    },
  },
  {
    on: '/settings/ip-access-list',
    label: 'Add ranges',
    open: async (page) => {
      await page.getByRole('button', { name: 'Add ranges…' }).click();
      await page.getByRole('textbox', { name: /Ranges to add/ }).fill('192.0.2.0/24 not-a-range');
      await expect(page.getByRole('dialog', { name: 'Add ranges to the IP access list' })).toBeVisible();
    },
  },
];

/** Walks the routes of one half of the list in one page, checking each screen with the rules given. */
async function sweep(
  page: Page,
  request: APIRequestContext,
  part: 0 | 1,
  runOnly: typeof ALL_RULES = ALL_RULES,
  phone = false,
) {
  // Colours are checked at rest, not half-way through a transition.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.addInitScript(axeSource);
  const found: string[] = [];
  const all = routes(await ids(request));
  const half = Math.ceil(all.length / 2);
  let previous: string | undefined;
  for (const [name, path] of part === 0 ? all.slice(0, half) : all.slice(half)) {
    if (previous === undefined) await page.goto(path);
    else {
      // Every later screen is reached the way a link reaches it, in the same page: the app and axe stay loaded
      // (a reload per screen would parse both again, 50 times a mode). The old screen's heading is marked, so
      // the wait below is for the new screen's, not the old one still on view.
      await page.evaluate((p) => {
        document.querySelector('h1')?.setAttribute('data-swept', '');
        window.history.pushState(null, '', p);
      }, path);
      await page.waitForURL((url) => url.pathname + url.search === path);
    }
    // A search-only change keeps the same screen (and heading) on view; any other change replaces it.
    const samePath = previous !== undefined && previous.split('?')[0] === path.split('?')[0];
    await expect(page.locator(samePath ? 'h1' : 'h1:not([data-swept])')).toBeVisible();
    previous = path;
    // Let the screen's first data arrive (the sweep checks what the admin sees, not a spinner). Not
    // `networkidle`: live screens poll.
    // Skeletons and loading spinners carry `data-loading`; a live status's pulsing dot does not, so live
    // screens do not hold the sweep for the whole timeout.
    await page
      .waitForFunction(() => !document.querySelector('[data-loading], [aria-busy="true"]'), null, { timeout: 4_000 })
      .catch(() => undefined);
    // The doctor may be running (the doctor journey starts runs on another worker): check the screen at rest,
    // not half-way through a run.
    if (path === '/doctor') {
      await expect(page.getByRole('button', { name: 'Run the doctor' })).toBeEnabled({ timeout: 60_000 });
    }
    found.push(...(await check(page, name, path, runOnly)));
    for (const dialog of DIALOGS.filter((d) => d.on === path && (!d.phone || phone))) {
      await dialog.open(page);
      found.push(...(await check(page, name, path, runOnly, `, ${dialog.label} open`)));
      await page.keyboard.press('Escape');
      await expect(page.locator('[role="dialog"], [role="menu"]')).toHaveCount(0);
    }
  }
  expect(found, 'serious or critical axe violations').toEqual([]);
}

test.describe('axe finds no serious or critical violation on any screen', () => {
  // Independent parts (each half of the screens in each mode): they share the run's workers.
  test.describe.configure({ mode: 'parallel', timeout: 240_000 });

  for (const part of [0, 1] as const) {
    const of = `screens part ${part + 1} of 2`;
    test(`light theme, ${of}`, async ({ page, request }) => {
      await page.emulateMedia({ colorScheme: 'light' });
      await sweep(page, request, part);
    });

    test(`dark theme, ${of}`, async ({ page, request }) => {
      await page.emulateMedia({ colorScheme: 'dark' });
      await sweep(page, request, part, COLOUR_RULES);
    });

    test(`390 px wide, ${of}`, async ({ page, request }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await sweep(page, request, part, ALL_RULES, true);
    });
  }
});
