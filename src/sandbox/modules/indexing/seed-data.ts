/**
 * The repositories the sandbox seeds, shared by the indexing seed and the knowledge seed (notes pinned to
 * repositories name the same paths).
 */
export const REPOSITORY_OWNER = 'acme';

export const SEED_REPOSITORY_NAMES = [
  'api-gateway',
  'auth-service',
  'billing-engine',
  'ledger-service',
  'payments-api',
  'checkout-web',
  'mobile-ios',
  'mobile-android',
  'design-system',
  'web-dashboard',
  'data-pipeline',
  'etl-jobs',
  'warehouse-models',
  'feature-flags',
  'notification-service',
  'search-indexer',
  'infra-terraform',
  'k8s-manifests',
  'ci-templates',
  'developer-portal',
  'docs-site',
  'cli-tools',
  'sdk-python',
  'sdk-typescript',
  'fraud-detection',
  'risk-scoring',
  'identity-provider',
  'audit-trail',
  'secrets-operator',
  'vuln-scanner',
  'growth-experiments',
  'landing-pages',
  'email-templates',
  'internal-admin',
  'support-tools',
  'hr-portal',
  'analytics-events',
  'metrics-collector',
  'log-shipper',
  'incident-bot',
  'release-manager',
  'config-service',
  'graphql-server',
  'media-service',
  'image-resizer',
  'geo-service',
  'pricing-service',
  'catalog-service',
  'inventory-service',
  'order-service',
  'shipping-service',
  'recommendations',
  'ml-platform',
  'notebooks',
  'chat-widget',
  'status-page',
  'load-tests',
  'chaos-experiments',
  'backstage-plugins',
  'monorepo-tools',
] as const;

/** The repository paths of the organization at `orgIndex` (oldest first): an overlapping slice of the pool. */
export function seedRepositoryPathsForOrg(orgIndex: number): string[] {
  const pool = SEED_REPOSITORY_NAMES;
  const count = 18 + ((orgIndex * 7) % 17);
  const start = (orgIndex * 7) % pool.length;
  return Array.from({ length: count }, (_, i) => `${REPOSITORY_OWNER}/${pool[(start + i) % pool.length]}`);
}
