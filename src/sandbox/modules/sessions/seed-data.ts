/** Realistic material for the sessions seed and simulation: tasks, repositories, tags, agent lines. */

export const REPOS = [
  'acme/web-app',
  'acme/payments-api',
  'acme/mobile-ios',
  'acme/mobile-android',
  'acme/data-pipeline',
  'acme/infra-terraform',
  'acme/design-system',
  'acme/auth-service',
  'acme/search-indexer',
  'acme/billing-worker',
] as const;

/** `{repo}` is replaced with a repository name. */
export const TASKS: ReadonlyArray<{ title: string; prompt: string; category: string }> = [
  {
    title: 'Fix flaky checkout test',
    prompt:
      'The checkout integration test in {repo} fails about one run in five on CI. Find the race and make the test deterministic.',
    category: 'testing',
  },
  {
    title: 'Upgrade React to 19',
    prompt: 'Upgrade {repo} to React 19, fix the deprecations and make sure the test suite passes.',
    category: 'dependency_upgrade',
  },
  {
    title: 'Add cursor pagination to invoices endpoint',
    prompt:
      'GET /invoices in {repo} returns everything at once. Add first/after cursor pagination and update the client.',
    category: 'feature',
  },
  {
    title: 'Investigate p99 latency regression',
    prompt: 'p99 latency of {repo} doubled after the last deploy. Find the cause and propose a fix.',
    category: 'investigation',
  },
  {
    title: 'Remove unused feature flags',
    prompt: 'Remove the feature flags in {repo} that have been fully rolled out for more than 90 days.',
    category: 'refactor',
  },
  {
    title: 'Patch vulnerable lodash version',
    prompt: 'Dependabot flags lodash < 4.17.21 in {repo}. Upgrade it and check nothing relies on the old behaviour.',
    category: 'dependency_upgrade',
  },
  {
    title: 'Write migration guide for v3 API',
    prompt: 'Write docs in {repo} explaining how to move from the v2 to the v3 API, with examples.',
    category: 'documentation',
  },
  {
    title: 'Fix timezone bug in daily report',
    prompt:
      'The daily report in {repo} uses UTC midnight but billing days start at 08:00 UTC. Fix the boundary and add tests.',
    category: 'bug_fix',
  },
  {
    title: 'Add retry with backoff to webhook sender',
    prompt: 'Webhook deliveries in {repo} are dropped on 5xx. Add retries with exponential backoff and jitter.',
    category: 'feature',
  },
  {
    title: 'Convert class components to hooks',
    prompt: 'Convert the remaining class components in {repo} to function components with hooks.',
    category: 'refactor',
  },
  {
    title: 'Raise test coverage of auth module',
    prompt: 'Coverage of the auth module in {repo} is 41%. Add unit tests for the token refresh paths.',
    category: 'testing',
  },
  {
    title: 'Fix memory leak in indexer worker',
    prompt: 'The worker in {repo} grows to 4 GB over a day. Find the leak and fix it.',
    category: 'bug_fix',
  },
  {
    title: 'Add dark mode to settings page',
    prompt: 'Support dark mode on the settings page of {repo} using the design tokens.',
    category: 'feature',
  },
  {
    title: 'Terraform: tag all S3 buckets',
    prompt: 'Every S3 bucket in {repo} must carry the cost-center tag. Add it and a policy check.',
    category: 'refactor',
  },
  {
    title: 'Triage Sentry error spike',
    prompt: 'Sentry shows a spike of TypeError in {repo} since this morning. Triage it and open a fix.',
    category: 'investigation',
  },
  {
    title: 'Add OpenAPI docs for orders API',
    prompt: 'Generate and publish OpenAPI docs for the orders API in {repo}.',
    category: 'documentation',
  },
];

export const TAGS = [
  'bug',
  'feature',
  'chore',
  'flaky-test',
  'dependencies',
  'security',
  'frontend',
  'backend',
  'infra',
  'docs',
  'urgent',
  'customer-reported',
] as const;

/** Weighted origins: most sessions come from the web app, the API and Slack. */
export const ORIGIN_WEIGHTS: ReadonlyArray<[string, number]> = [
  ['webapp', 34],
  ['api', 20],
  ['slack', 14],
  ['automation', 8],
  ['cli', 6],
  ['linear', 6],
  ['desktop', 4],
  ['jira', 4],
  ['teams', 2],
  ['other', 2],
];

export const PLAYBOOKS = [
  'playbook-dependency-upgrade',
  'playbook-flaky-test',
  'playbook-security-patch',
  'playbook-docs',
] as const;

export const SERVICE_USERS = ['service-user-ci-bot', 'service-user-release-bot', 'service-user-sandbox-admin'] as const;

export const AGENT_START = [
  'I am setting up the environment and reading the repository.',
  'Cloning the repository and installing dependencies.',
  'Starting now: I will first reproduce the problem locally.',
];

export const AGENT_PROGRESS = [
  'I found the relevant code and I am writing the change.',
  'Tests are running; two failures look related to my change, fixing them.',
  'The change builds; now adding tests for the edge cases.',
  'I reproduced the issue with a minimal test.',
  'Reviewing the diff once more before opening the pull request.',
  'Lint passes. Running the full test suite.',
];

export const AGENT_QUESTIONS = [
  'Should I keep backwards compatibility with the old behaviour, or can I change it?',
  'There are two ways to do this; do you prefer a smaller diff or a cleaner design?',
  'I need access to the staging credentials to verify this. Can you add them as a session secret?',
];

export const AGENT_DONE = [
  'Done. I opened a pull request with the change and tests.',
  'Finished: the fix is in the pull request, and CI is green.',
  'All set. The pull request describes the change and how I tested it.',
];

export const AGENT_ERRORS = [
  'I could not install the dependencies: the private registry answered 403.',
  'The build fails on the main branch before my change; I cannot continue.',
  'The sandbox ran out of disk space while building the project.',
];

export const USER_REPLIES = [
  'Keep it backwards compatible please.',
  'Smaller diff is fine.',
  'Thanks, looks good!',
  'Can you also update the changelog?',
];

export const ISSUES = [
  {
    title: 'Missing context about the test environment',
    severity: 'medium',
    detail: 'The agent spent time discovering how CI runs the tests.',
  },
  {
    title: 'Ambiguous requirement',
    severity: 'low',
    detail: 'The prompt did not say whether backwards compatibility mattered.',
  },
  {
    title: 'Dependency installation failed once',
    severity: 'high',
    detail: 'A private registry refused the first install attempt.',
  },
];
