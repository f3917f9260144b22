/**
 * The sandbox's git estate: connections of several provider types, each with groups of repositories, so the
 * repository picker, group and prefix matchers and paging all have realistic material.
 */
export interface SeedConnection {
  name: string;
  host: string;
  git_provider_type: string;
  /** Groups (owners, GitLab groups and subgroups, Azure DevOps org/project, Bitbucket workspaces). */
  groups: readonly string[];
  repositories: number;
}

export const SEED_CONNECTIONS: readonly SeedConnection[] = [
  {
    name: 'GitHub — acme-corp',
    host: 'github.com',
    git_provider_type: 'github_app',
    groups: ['acme-corp', 'acme-labs', 'acme-oss'],
    repositories: 160,
  },
  {
    name: 'GitLab (self-managed)',
    host: 'gitlab.acme.internal',
    git_provider_type: 'gitlab_oauth',
    groups: ['platform/infra', 'platform/runtime', 'payments/core', 'payments/risk', 'data/pipelines', 'mobile/apps'],
    repositories: 180,
  },
  {
    name: 'Azure DevOps — Acme',
    host: 'dev.azure.com',
    git_provider_type: 'azure_devops_oauth',
    groups: ['acme/Mobile', 'acme/Web', 'acme/Shared'],
    repositories: 70,
  },
  {
    name: 'Bitbucket — data team',
    host: 'bitbucket.org',
    git_provider_type: 'bitbucket_token',
    groups: ['acme-data', 'acme-analytics'],
    repositories: 60,
  },
  {
    name: 'GitHub Enterprise Server',
    host: 'ghe.acme.io',
    git_provider_type: 'github_token',
    groups: ['security', 'sre', 'internal-tools'],
    repositories: 90,
  },
];

export const REPO_WORDS = [
  'api',
  'gateway',
  'billing',
  'ledger',
  'auth',
  'web',
  'mobile',
  'ios',
  'android',
  'search',
  'indexer',
  'pipeline',
  'etl',
  'dashboard',
  'infra',
  'terraform',
  'helm-charts',
  'runbooks',
  'docs',
  'sdk',
  'cli',
  'worker',
  'scheduler',
  'notifications',
  'payments',
  'checkout',
  'catalog',
  'inventory',
  'analytics',
  'ml-models',
  'feature-store',
  'observability',
  'alerts',
  'config',
  'secrets-operator',
  'identity',
  'fraud',
  'reports',
  'warehouse',
  'ingest',
  'design-system',
  'storefront',
  'admin',
  'shipping',
  'pricing',
] as const;

export const REPO_SUFFIXES = [
  '',
  '-service',
  '-svc',
  '-v2',
  '-legacy',
  '-client',
  '-core',
  '-tools',
  '-proxy',
] as const;

export const LANGUAGES = [
  'TypeScript',
  'Go',
  'Python',
  'Java',
  'Kotlin',
  'Swift',
  'Rust',
  'HCL',
  'Ruby',
  'C#',
] as const;

/**
 * Permissions per organization, by the organizations' seed order. The first has more than 100 (paging
 * matters, one replace still fits), the fourth more than 200 (the editor must apply it per item), the last none.
 */
export const PERMISSIONS_PER_ORG = [150, 24, 12, 230, 40, 8, 16, 0] as const;
