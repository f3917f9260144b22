/** Realistic knowledge notes and folders for the sandbox seed: what an engineering enterprise tells its agents. */

/** Folder paths, parents before children. */
export const SEED_FOLDERS = [
  '/Engineering',
  '/Engineering/Backend',
  '/Engineering/Backend/Payments',
  '/Engineering/Frontend',
  '/Engineering/Mobile',
  '/Operations',
  '/Operations/Incidents',
  '/Operations/Deploys',
  '/Security',
  '/Onboarding',
] as const;

export interface NoteTemplate {
  name: string;
  trigger: string;
  body: string;
  /** A path of SEED_FOLDERS, or null for the root. */
  folder: string | null;
  macro?: string;
  /** Pin the note to one of the organization's repositories. */
  pin?: boolean;
}

export const ENTERPRISE_NOTES: NoteTemplate[] = [
  {
    name: 'Commit message conventions',
    trigger: 'When writing a commit message or a pull request title',
    folder: '/Engineering',
    macro: '!commits',
    body: `# Commit messages

Use **Conventional Commits**: \`type(scope): summary\`.

- \`feat\`: a new feature
- \`fix\`: a bug fix
- \`chore\`, \`docs\`, \`refactor\`, \`test\`

Keep the summary under 72 characters and write it in the imperative mood.

\`\`\`
fix(ledger): round half-even when settling multi-currency batches
\`\`\`
`,
  },
  {
    name: 'Pull request checklist',
    trigger: 'Before opening a pull request',
    folder: '/Engineering',
    body: `## Before you open a PR

1. Run the full test suite locally.
2. Update the changelog when behaviour changes.
3. Link the issue in the description.
4. Request review from the owning team (see \`CODEOWNERS\`).

> Small PRs get reviewed faster. Split anything over 400 lines.
`,
  },
  {
    name: 'Backend service layout',
    trigger: 'When creating a new backend service or module',
    folder: '/Engineering/Backend',
    body: `# Service layout

Every service follows the same layout:

- \`cmd/\` — entry points
- \`internal/\` — domain code, never imported by other services
- \`api/\` — the OpenAPI document, the source of truth for handlers

Health checks live at \`/healthz\` and \`/readyz\`. See the [service template](https://github.com/acme/service-template).
`,
  },
  {
    name: 'Database migrations',
    trigger: 'When changing a database schema',
    folder: '/Engineering/Backend',
    macro: '!migrations',
    body: `# Migrations

- Migrations are **forward-only**; never edit an applied one.
- Add columns as nullable first, backfill, then add the constraint in a later release.
- Run \`make migrate-check\` before pushing.
`,
  },
  {
    name: 'Money handling',
    trigger: 'When code touches amounts, currencies or rounding',
    folder: '/Engineering/Backend/Payments',
    body: `# Money

Amounts are **integers in minor units** (cents). Never use floating point.

| Currency | Minor units |
|---|---|
| USD | 2 |
| JPY | 0 |

Use the \`Money\` type from \`@acme/money\`; it refuses to add different currencies.
`,
  },
  {
    name: 'Idempotency keys',
    trigger: 'When adding or changing a payment endpoint',
    folder: '/Engineering/Backend/Payments',
    body: `Every mutating payment endpoint **must** accept an \`Idempotency-Key\` header and store the first response for 24 hours.

Retries with the same key return the stored response; a different body with the same key answers \`409\`.
`,
  },
  {
    name: 'Frontend component rules',
    trigger: 'When writing React components in the web apps',
    folder: '/Engineering/Frontend',
    body: `# Components

- Use the design system (\`@acme/ui\`) before writing a new component.
- Every interactive element must be reachable by keyboard and have an accessible name.
- Co-locate tests: \`button.tsx\` next to \`button.test.tsx\`.
`,
  },
  {
    name: 'Mobile release trains',
    trigger: 'When preparing a mobile app release',
    folder: '/Engineering/Mobile',
    body: `Mobile releases ship **every second Tuesday**. The branch cut is the Thursday before.

- iOS: bump \`CFBundleShortVersionString\`
- Android: bump \`versionCode\` and \`versionName\`
`,
  },
  {
    name: 'Incident severity levels',
    trigger: 'When an alert fires or an incident is declared',
    folder: '/Operations/Incidents',
    macro: '!sev',
    body: `# Severity

- **SEV1**: customer-facing outage; page the on-call lead.
- **SEV2**: degraded service for some customers.
- **SEV3**: internal impact only.

Open a channel named \`#inc-YYYYMMDD-short-name\` and post updates every 30 minutes.
`,
  },
  {
    name: 'Deploy freeze windows',
    trigger: 'Before deploying to production',
    folder: '/Operations/Deploys',
    body: `No production deploys:

- Fridays after 15:00 UTC
- during the last week of December
- while a SEV1 or SEV2 incident is open

Emergency fixes need approval from the on-call lead.
`,
  },
  {
    name: 'Secrets handling',
    trigger: 'When code needs a credential, token or key',
    folder: '/Security',
    body: `# Secrets

Never commit secrets. Read them from the environment; in production they come from the secrets operator.

If a secret leaks, **rotate it first**, then remove it from history.
`,
  },
  {
    name: 'Dependency policy',
    trigger: 'When adding or upgrading a third-party dependency',
    folder: '/Security',
    body: `Pin exact versions. New dependencies need a licence check (MIT, Apache-2.0, BSD are fine; ask before anything else) and must have had a release in the last 12 months.`,
  },
  {
    name: 'Repository map',
    trigger: 'When you need to find which repository owns a feature',
    folder: '/Onboarding',
    body: `# Where things live

- Payments: \`acme/payments-api\`, \`acme/ledger-service\`
- Web: \`acme/web-dashboard\`, \`acme/design-system\`
- Infrastructure: \`acme/infra-terraform\`, \`acme/k8s-manifests\`
`,
  },
  {
    name: 'Code review etiquette',
    trigger: 'When reviewing or responding to review comments',
    folder: null,
    body: `Be kind and specific. Prefix optional suggestions with *nit:*. Approve when the change is better than what is there, not when it is perfect.`,
  },
  {
    name: 'Testing pyramid',
    trigger: 'When deciding which tests to write',
    folder: null,
    body: `Prefer many fast unit tests, fewer integration tests, and a handful of end-to-end journeys. Flaky tests are bugs: fix or delete them within a week.`,
  },
];

export const ORG_NOTES: NoteTemplate[] = [
  {
    name: 'Local development setup',
    trigger: 'When setting up the repository locally or running it for the first time',
    folder: '/Onboarding',
    pin: true,
    body: `# Local setup

\`\`\`
make bootstrap
make dev
\`\`\`

The app runs on <http://localhost:3000>. Seed data: \`make seed\`.
`,
  },
  {
    name: 'Team on-call rotation',
    trigger: 'When you need to know who is on call for this team',
    folder: '/Operations',
    body: `The rotation is in PagerDuty under the team's schedule. Hand-over is **Monday 10:00 local time**.`,
  },
  {
    name: 'Service ownership',
    trigger: 'When changing code owned by this organization',
    folder: '/Engineering/Backend',
    pin: true,
    body: `This repository is owned by the team. Changes to \`internal/billing\` need a second review from a payments engineer.`,
  },
  {
    name: 'Feature flag naming',
    trigger: 'When adding a feature flag',
    folder: '/Engineering/Frontend',
    pin: true,
    body: `Name flags \`team.area.feature\`, e.g. \`growth.checkout.one-click\`. Remove a flag within **30 days** of reaching 100 %.`,
  },
  {
    name: 'Runbook: queue backlog',
    trigger: 'When the job queue backlog alert fires',
    folder: '/Operations/Incidents',
    body: `1. Check the consumer dashboard.
2. Scale consumers: \`kubectl scale deploy/worker --replicas=12\`.
3. If messages are poisoned, move them to the dead-letter queue.`,
  },
  {
    name: 'Release checklist',
    trigger: 'When cutting a release of this team’s services',
    folder: '/Operations/Deploys',
    pin: true,
    body: `- [ ] Changelog updated
- [ ] Migrations reviewed
- [ ] Canary healthy for 30 minutes
- [ ] Rollback plan written`,
  },
  {
    name: 'Glossary',
    trigger: 'When a domain term is unclear',
    folder: null,
    body: `**Settlement**: moving funds between accounts at the end of a batch.

**Tenant**: one customer account; every query must filter by tenant.`,
  },
];
