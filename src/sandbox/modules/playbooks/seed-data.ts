/**
 * Realistic playbooks for the sandbox seed. The enterprise ones carry the fixed ids the sessions seed refers
 * to (`PLAYBOOKS` of the sessions seed data), so a seeded session's `playbook_id` resolves.
 */
import type { PLAYBOOKS } from '../sessions/seed-data';

export interface PlaybookTemplate {
  /** Fixed id (enterprise playbooks the sessions seed uses); minted otherwise. */
  id?: (typeof PLAYBOOKS)[number];
  title: string;
  macro?: string;
  body: string;
}

export const ENTERPRISE_PLAYBOOKS: PlaybookTemplate[] = [
  {
    id: 'playbook-dependency-upgrade',
    title: 'Upgrade a dependency',
    macro: '!upgrade',
    body: `# Upgrade a dependency

## Procedure
1. Read the changelog between the current and the target version; list every breaking change.
2. Bump the version in the manifest **and** the lockfile (\`npm install <pkg>@<version>\`, \`poetry add\`, …).
3. Fix compile errors and deprecations the upgrade surfaces.
4. Run the full test suite; fix what breaks.
5. Open a pull request titled \`chore(deps): upgrade <pkg> to <version>\`.

## Specifications
- The pull request lists the breaking changes and how each was handled.
- No unrelated changes.

## Advice
- Upgrade one major version at a time.
- If a test fails for reasons unrelated to the upgrade, say so in the PR instead of fixing it.
`,
  },
  {
    id: 'playbook-flaky-test',
    title: 'Fix a flaky test',
    macro: '!flaky',
    body: `# Fix a flaky test

## Procedure
1. Run the test 50 times in a loop and record how often it fails.
2. Find the source of non-determinism: time, ordering, shared state, network, concurrency.
3. Fix the cause — never add retries or longer sleeps.
4. Run it 200 times to show it is stable.

## Specifications
- The PR description names the cause and shows the before/after failure rates.

\`\`\`sh
for i in $(seq 50); do npm test -- -t "the test name" || echo FAIL; done | grep -c FAIL
\`\`\`
`,
  },
  {
    id: 'playbook-security-patch',
    title: 'Patch a security advisory',
    macro: '!cve',
    body: `# Patch a security advisory

## Procedure
1. Read the advisory; confirm the affected versions and whether our code reaches the vulnerable path.
2. Upgrade to the first fixed version (or apply the vendor's mitigation).
3. Add a regression test when the vulnerable path is ours.
4. Open a PR labelled \`security\`; do not mention exploit details in the title.

## Forbidden actions
- Do not disable the scanner or add the advisory to an ignore list.
`,
  },
  {
    id: 'playbook-docs',
    title: 'Update the documentation',
    macro: '!docs',
    body: `# Update the documentation

## Procedure
1. Find every page that describes the changed behaviour (\`grep\` the docs folder and the README).
2. Update the text and the code samples; run the samples.
3. Add a changelog entry under *Unreleased*.

## Specifications
- Samples compile and run.
- Links are relative and resolve.
`,
  },
  {
    title: 'Investigate a production incident',
    macro: '!incident',
    body: `# Investigate a production incident

## Procedure
1. Collect the error messages, the first occurrence and the affected endpoints from the logs.
2. Find the deploy or config change closest before the first occurrence.
3. Reproduce locally or in staging.
4. Write a short timeline and a root-cause hypothesis in the incident channel.
5. Propose a fix as a PR; **do not merge** without the on-call engineer's approval.
`,
  },
  {
    title: 'Triage new issues',
    body: `# Triage new issues

For every issue opened since the last run:

1. Label it (\`bug\`, \`feature\`, \`question\`, \`docs\`).
2. Add a severity for bugs (S1–S4) and reproduce S1/S2 bugs.
3. Close duplicates with a link to the original.
4. Post a summary: counts per label, and the S1/S2 issues with a one-line description.
`,
  },
];

export const ORG_PLAYBOOKS: PlaybookTemplate[] = [
  {
    title: 'Add an API endpoint',
    macro: '!endpoint',
    body: `# Add an API endpoint

1. Add the route and its request/response schemas.
2. Validate input at the edge; answer problem bodies on errors.
3. Write tests for the happy path, each validation error and the permission check.
4. Document it in \`docs/api.md\`.
`,
  },
  {
    title: 'Write a database migration',
    macro: '!migration',
    body: `# Write a database migration

- Migrations are **forward-only**; never edit one that has shipped.
- Add columns as nullable, backfill in batches, then add the constraint.
- Test the migration against a copy of production-sized data.
`,
  },
  {
    title: 'Raise test coverage of a module',
    body: `# Raise test coverage

1. Run coverage and list the least-covered files of the module.
2. Add tests for behaviour (not lines): edge cases, errors, boundaries.
3. Keep every test under 100 ms.
`,
  },
  {
    title: 'Clean up feature flags',
    macro: '!flags',
    body: `# Clean up feature flags

1. List flags that have been fully rolled out for more than 30 days.
2. Remove the flag checks and the dead branch.
3. Delete the flag from the flag service config in the same PR.
`,
  },
  {
    title: 'Weekly dependency audit',
    body: `# Weekly dependency audit

Run \`npm audit\` / \`pip-audit\` on every service of the organization, then post a table of
findings (package, severity, fixed version) and open one PR per high or critical finding.
`,
  },
  {
    title: 'Release notes draft',
    body: `# Release notes draft

Collect the merged PRs since the last tag, group them (Features, Fixes, Internal), and write
user-facing notes. Link each entry to its PR.
`,
  },
];
