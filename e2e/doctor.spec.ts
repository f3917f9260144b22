/**
 * The Doctor: reached from the navigation, run from the screen against the console's upstream (the embedded
 * sandbox, admin credential), every section shown with its verdict; the report stays for the next visit.
 */
import { expect, test } from './fixtures';

test('runs the doctor from its screen and shows every section with its verdict', async ({ page, request }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Doctor' }).click();
  await expect(page.getByRole('heading', { name: 'Doctor', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle(/Doctor/);

  const run = page.getByRole('button', { name: 'Run the doctor' });
  await expect(run).toBeEnabled();
  await run.click();
  // Against the sandbox the run takes seconds; the button says it is running meanwhile.
  await expect(page.getByTestId('doctor-verdict')).toHaveText(
    'The credential works: every read operation allowed and every answer conforming',
    { timeout: 45_000 },
  );
  await expect(page.getByRole('button', { name: 'Run the doctor' })).toBeEnabled();

  const section = (name: RegExp) => page.getByRole('region', { name });
  await expect(section(/^1\. Reach$/).getByText('OK', { exact: true })).toBeVisible();
  await expect(page.getByTestId('doctor-verdict-reach')).toContainText('Reached http://127.0.0.1');
  await expect(page.getByTestId('doctor-verdict-identity')).toContainText('Signed in as service_user "Sandbox Admin"');
  await expect(page.getByTestId('doctor-verdict-operations')).toContainText('read operations');
  await expect(page.getByTestId('doctor-verdict-operations')).not.toContainText('refused');
  await expect(page.getByTestId('doctor-verdict-conformance')).toContainText('conform to the contract');
  await expect(page.getByTestId('doctor-verdict-rate-limit')).toContainText('No 429 seen');
  await expect(page.getByTestId('doctor-verdict-screens')).toContainText('screens will work');
  for (const name of [
    /^2\. Identity$/,
    /^3\. What this credential may do$/,
    /^4\. Conformance$/,
    /^5\. Rate limiting$/,
  ]) {
    await expect(section(name)).toBeVisible();
  }

  // The operations table lists the contract's reads with what each answered.
  const ops = page.getByRole('table', { name: 'Read operations' });
  await expect(ops.getByText('organizations.list', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: /^Refused \(0\)$/ }).click();
  await expect(section(/^3\. What this credential may do$/).getByText('No operation in this group')).toBeVisible();
  await page.getByRole('button', { name: /^All \(\d+\)$/ }).click();
  await expect(ops.getByText('self.get', { exact: true })).toBeVisible();
  const screens = page.getByRole('table', { name: 'Screens of the console' });
  await expect(screens.getByText('Enterprise: Organizations')).toBeVisible();
  await expect(screens.getByText('Works').first()).toBeVisible();

  // The console keeps the report: the endpoint and a new visit read it; nothing was refused, so no notice.
  const summary = (await (await request.get('/console/doctor/summary')).json()) as {
    refused_count: number;
    ran_at: number;
  };
  expect(summary.refused_count).toBe(0);
  expect(summary.ran_at).toBeGreaterThan(0);
  await page.reload();
  await expect(page.getByTestId('doctor-verdict')).toContainText('The credential works');
  await expect(page.getByText(/The last doctor run found/)).toHaveCount(0);
});
