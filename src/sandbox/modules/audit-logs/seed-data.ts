/**
 * The audit-log seed: a year of enterprise history (24,000 entries) across the seeded organizations, with the
 * principals and `data` objects each action carries. Deterministic: everything comes from the module's rng.
 */
import { ID_PREFIX } from '../../../api/conventions';
import type { Rng } from '../../random';

export const SEED_ENTRY_COUNT = 24_000;
/** The seed spans this many seconds back from the sandbox's start. */
export const SEED_SPAN_SECONDS = 365 * 86_400;

export interface SeedServiceUser {
  service_user_id: string;
  service_user_name: string;
}
export interface SeedUser {
  user_id: string;
  user_email: string;
}

const SERVICE_USER_NAMES = [
  'Release Automation',
  'Terraform Provisioner',
  'Chat Integration',
  'Issue Tracker Sync',
  'Nightly Triage Bot',
  'Security Scanner',
  'Onboarding Workflow',
];

const PEOPLE = [
  'ada.lovelace',
  'grace.hopper',
  'alan.turing',
  'katherine.johnson',
  'linus.pauling',
  'margaret.hamilton',
  'edsger.dijkstra',
  'barbara.liskov',
  'donald.knuth',
  'frances.allen',
  'ken.thompson',
  'radia.perlman',
  'tim.berners-lee',
  'hedy.lamarr',
  'john.backus',
  'adele.goldberg',
  'guido.rossum',
  'shafi.goldwasser',
  'leslie.lamport',
  'sophie.wilson',
  'dennis.ritchie',
  'jean.sammet',
];

const REPOS = [
  'acme/payments-api',
  'acme/web-frontend',
  'acme/mobile-ios',
  'acme/mobile-android',
  'acme/data-pipeline',
  'acme/infra-terraform',
  'acme/auth-service',
  'acme/search-indexer',
  'platform/ci-templates',
  'platform/observability',
];
const PROMPTS = [
  'Fix the flaky checkout integration test',
  'Upgrade the logging library to the latest minor version',
  'Add pagination to the invoices endpoint',
  'Investigate the memory leak in the search indexer',
  'Write unit tests for the rate limiter',
  'Migrate the settings page to the new design system',
  'Remove the deprecated v1 billing client',
  'Triage the open dependency alerts',
];
const NOTE_NAMES = [
  'Deploying to staging',
  'Code review checklist',
  'Database migration rules',
  'Feature flag conventions',
  'On-call runbook',
  'Testing strategy',
  'API error handling',
  'Monorepo layout',
];
const SECRET_KEYS = [
  'NPM_TOKEN',
  'SENTRY_DSN',
  'STAGING_DB_URL',
  'GITHUB_APP_KEY',
  'DATADOG_API_KEY',
  'SLACK_WEBHOOK',
  'VPN_TOTP',
];
const USER_AGENTS = [
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5)',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64)',
  'agent-platform-cli/3.2.1',
  'python-httpx/0.27',
];

/** Relative weights: sessions dominate, as they do in a real enterprise's log. */
const ACTION_WEIGHTS: Array<[string, number]> = [
  ['create_session', 26],
  ['send_session_message', 22],
  ['archive_session', 8],
  ['terminate_session', 6],
  ['update_session_tags', 2],
  ['generate_session_insights', 1],
  ['remove_repository_indexing', 1],
  ['create_knowledge_note', 5],
  ['update_knowledge_note', 7],
  ['delete_knowledge_note', 2],
  ['create_secret', 4],
  ['delete_secret', 2],
  ['update_git_permission', 7],
  ['create_join_request', 5],
  ['automatic_join_event', 4],
  ['reject_join_request', 2],
  ['invite_users', 1],
  ['update_user_role', 1],
  ['delete_user', 1],
  ['assign_org_user_role', 1],
  ['update_org_user_role', 1],
  ['remove_org_user', 1],
  ['create_service_user', 1],
  ['delete_service_user', 1],
  ['create_idp_groups', 1],
  ['delete_idp_group', 1],
  ['replace_ip_access_list', 1],
  ['append_ip_access_list', 1],
  ['clear_ip_access_list', 1],
  ['create_organization', 1],
  ['update_organization', 1],
  ['delete_organization', 1],
  ['update_acu_limit', 1],
  ['delete_acu_limit', 1],
  ['update_org_group_limits', 1],
  ['update_allowed_tags', 1],
  ['update_default_tag', 1],
  ['assign_idp_group_role', 1],
  ['update_idp_group_role', 1],
  ['remove_idp_group_role', 1],
  ['assign_org_idp_group_role', 1],
  ['update_org_idp_group_role', 1],
  ['remove_org_idp_group_role', 1],
  ['assign_service_user_role', 1],
  ['update_service_user_role', 1],
  ['assign_org_service_user_role', 1],
  ['update_org_service_user_role', 1],
  ['remove_org_service_user', 1],
  ['pause_schedule', 1],
];
const WEIGHT_TOTAL = ACTION_WEIGHTS.reduce((s, [, w]) => s + w, 0);

export function pickAction(rng: Rng): string {
  let r = rng.next() * WEIGHT_TOTAL;
  for (const [action, w] of ACTION_WEIGHTS) {
    r -= w;
    if (r < 0) return action;
  }
  return ACTION_WEIGHTS[0]![0];
}

export function seedPrincipals(rng: Rng): { serviceUsers: SeedServiceUser[]; users: SeedUser[] } {
  return {
    serviceUsers: SERVICE_USER_NAMES.map((name) => ({
      service_user_id: `${ID_PREFIX.serviceUser}${rng.hex(12)}`,
      service_user_name: name,
    })),
    users: PEOPLE.map((p) => ({ user_id: `${ID_PREFIX.user}${rng.hex(12)}`, user_email: `${p}@example.com` })),
  };
}

const id = (rng: Rng, prefix: string) => `${prefix}${rng.hex(16)}`;

const ENTERPRISE_ROLES = [
  { role_id: 'role-enterprise-member', role_name: 'Enterprise Member' },
  { role_id: 'role-enterprise-viewer', role_name: 'Enterprise Viewer' },
  { role_id: 'role-billing-admin', role_name: 'Billing Admin' },
];
const ORG_ROLES = [
  { role_id: 'role-org-member', role_name: 'Org Member' },
  { role_id: 'role-org-admin', role_name: 'Org Admin' },
  { role_id: 'role-session-operator', role_name: 'Session Operator' },
];
const IDP_GROUP_NAMES = ['eng-oncall', 'design-team', 'qa-contractors', 'sso-pilot', 'release-managers'];

function person(rng: Rng, users: SeedUser[]) {
  const u = rng.pick(users);
  return { user_id: u.user_id, email: u.user_email };
}

function client(rng: Rng) {
  return {
    ip_address: `10.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`,
    user_agent: rng.pick(USER_AGENTS),
  };
}

/**
 * Who acted: join events come from people (or from nobody, for automatic joins); a schedule is paused by the
 * service itself (nobody); the other actions from a service user, a person, or a service user acting on a
 * person's behalf.
 */
export function pickPrincipals(
  rng: Rng,
  action: string,
  p: { serviceUsers: SeedServiceUser[]; users: SeedUser[] },
): { serviceUser: SeedServiceUser | null; user: SeedUser | null } {
  if (action === 'pause_schedule') return { serviceUser: null, user: null };
  if (action === 'automatic_join_event') return { serviceUser: null, user: rng.chance(0.5) ? rng.pick(p.users) : null };
  if (action === 'create_join_request') return { serviceUser: null, user: rng.pick(p.users) };
  if (action === 'reject_join_request')
    return { serviceUser: rng.chance(0.3) ? rng.pick(p.serviceUsers) : null, user: rng.pick(p.users) };
  const r = rng.next();
  if (r < 0.4) return { serviceUser: rng.pick(p.serviceUsers), user: null };
  if (r < 0.85) return { serviceUser: null, user: rng.pick(p.users) };
  return { serviceUser: rng.pick(p.serviceUsers), user: rng.pick(p.users) };
}

/** The `data` object of one action: the ids and fields an admin needs to answer "what changed". */
export function seedData(rng: Rng, action: string, users: SeedUser[]): Record<string, unknown> {
  // Only the area that knows the action draws from rng, so each action's data stays as it was seeded.
  return (
    sessionData(rng, action) ??
    contentData(rng, action) ??
    peopleData(rng, action, users) ??
    settingsData(rng, action) ??
    roleData(rng, action) ??
    {}
  );
}

/** Sessions and repository indexing. */
function sessionData(rng: Rng, action: string): Record<string, unknown> | undefined {
  switch (action) {
    case 'create_session':
      return {
        session_id: id(rng, ID_PREFIX.session),
        prompt: rng.pick(PROMPTS),
        agent_mode: rng.pick(['normal', 'normal', 'fast', 'lite']),
        origin: rng.pick(['webapp', 'api', 'cli', 'automation']),
        repos: rng.sample(REPOS, rng.int(1, 2)),
        tags: rng.chance(0.4) ? ['triage'] : [],
        client: client(rng),
      };
    case 'send_session_message':
      return { session_id: id(rng, ID_PREFIX.session), message_length: rng.int(12, 1800), resumed: rng.chance(0.1) };
    case 'archive_session':
      return { session_id: id(rng, ID_PREFIX.session), is_archived: true };
    case 'terminate_session':
      return {
        session_id: id(rng, ID_PREFIX.session),
        archive: rng.chance(0.3),
        previous_status: rng.pick(['running', 'suspended', 'claimed']),
      };
    case 'update_session_tags':
      return {
        session_id: id(rng, ID_PREFIX.session),
        tags: rng.sample(['triage', 'backend', 'frontend', 'urgent', 'chore'], rng.int(1, 3)),
        mode: rng.pick(['append', 'replace']),
      };
    case 'generate_session_insights':
      return { session_id: id(rng, ID_PREFIX.session), status: rng.pick(['started', 'already_exists']) };
    case 'remove_repository_indexing':
      return { repository_paths: rng.sample(REPOS, rng.int(1, 3)) };
    default:
      return undefined;
  }
}

/** Knowledge notes, secrets and git permissions. */
function contentData(rng: Rng, action: string): Record<string, unknown> | undefined {
  switch (action) {
    case 'create_knowledge_note':
      return {
        note_id: id(rng, ID_PREFIX.note),
        name: rng.pick(NOTE_NAMES),
        folder_path: rng.pick(['/', '/engineering', '/onboarding']),
        pinned_repo: rng.chance(0.3) ? rng.pick(REPOS) : null,
      };
    case 'update_knowledge_note':
      return {
        note_id: id(rng, ID_PREFIX.note),
        name: rng.pick(NOTE_NAMES),
        changes: { fields: rng.sample(['body', 'trigger_description', 'name', 'is_enabled'], rng.int(1, 2)) },
      };
    case 'delete_knowledge_note':
      return { note_id: id(rng, ID_PREFIX.note), name: rng.pick(NOTE_NAMES) };
    case 'create_secret':
      return {
        secret_id: `secret-${rng.hex(16)}`,
        key: rng.pick(SECRET_KEYS),
        secret_type: rng.pick(['key-value', 'key-value', 'cookie', 'totp']),
        is_sensitive: true,
      };
    case 'delete_secret':
      return { secret_id: `secret-${rng.hex(16)}`, key: rng.pick(SECRET_KEYS) };
    case 'update_git_permission': {
      const readOnly = rng.chance(0.5);
      return {
        git_permission_id: id(rng, ID_PREFIX.gitPermission),
        git_connection_id: `${ID_PREFIX.gitConnection}${rng.hex(8)}`,
        repo_path: rng.pick(REPOS),
        changes: { read_only: { from: !readOnly, to: readOnly } },
      };
    }
    default:
      return undefined;
  }
}

/** Members, join requests, service users and IdP groups. */
function peopleData(rng: Rng, action: string, users: SeedUser[]): Record<string, unknown> | undefined {
  switch (action) {
    case 'create_join_request':
      return {
        join_request_id: `joinreq-${rng.hex(12)}`,
        email: rng.pick(users).user_email,
        requested_role: rng.pick(['member', 'member', 'admin']),
        message: 'Please add me to this organization',
      };
    case 'automatic_join_event':
      return {
        email: rng.pick(users).user_email,
        email_domain: 'example.com',
        role: 'member',
        reason: 'verified email domain',
      };
    case 'reject_join_request':
      return {
        join_request_id: `joinreq-${rng.hex(12)}`,
        email: rng.pick(users).user_email,
        reason: rng.pick(['unknown requester', 'duplicate request', 'not in the team']),
      };
    case 'invite_users': {
      const emails = rng.sample(users, rng.int(1, 4)).map((u) => u.user_email);
      return { emails, count: emails.length, role: rng.pick(ENTERPRISE_ROLES) };
    }
    case 'update_user_role':
      return {
        ...person(rng, users),
        role: rng.pick(ENTERPRISE_ROLES),
        previous_role: rng.pick(ENTERPRISE_ROLES),
      };
    case 'delete_user':
      return { ...person(rng, users), idp_group_names: [] };
    case 'assign_org_user_role':
    case 'update_org_user_role':
    case 'remove_org_user':
      return {
        ...person(rng, users),
        role: action === 'remove_org_user' ? null : rng.pick(ORG_ROLES),
        previous_role: action === 'assign_org_user_role' ? null : rng.pick(ORG_ROLES),
      };
    case 'create_service_user':
      return {
        service_user_id: id(rng, ID_PREFIX.serviceUser),
        name: rng.pick(SERVICE_USER_NAMES),
        role: rng.pick([...ENTERPRISE_ROLES, ...ORG_ROLES]),
        expires_at: null,
      };
    case 'delete_service_user':
      return { service_user_id: id(rng, ID_PREFIX.serviceUser), name: rng.pick(SERVICE_USER_NAMES) };
    case 'create_idp_groups': {
      const names = rng.sample(IDP_GROUP_NAMES, rng.int(1, 3));
      return { idp_group_names: names, count: names.length, ignored: rng.int(0, 2) };
    }
    case 'delete_idp_group':
      return { idp_group_name: rng.pick(IDP_GROUP_NAMES), member_count: rng.int(0, 40), role_assignments: [] };
    default:
      return undefined;
  }
}

/** Enterprise and organization settings: the IP access list, organizations, limits and tags. */
function settingsData(rng: Rng, action: string): Record<string, unknown> | undefined {
  switch (action) {
    case 'replace_ip_access_list':
    case 'append_ip_access_list':
    case 'clear_ip_access_list': {
      const previous = ['127.0.0.0/8', '::1/128', ...rng.sample(OFFICE_RANGES, rng.int(1, 3))];
      if (action === 'clear_ip_access_list') return { ip_ranges: [], previous_ip_ranges: previous };
      const added = rng.sample(OFFICE_RANGES, rng.int(1, 2));
      const next =
        action === 'append_ip_access_list'
          ? [...new Set([...previous, ...added])]
          : ['127.0.0.0/8', '::1/128', ...added];
      return {
        ip_ranges: next,
        previous_ip_ranges: previous,
        ...(action === 'append_ip_access_list' ? { added: next.slice(previous.length) } : {}),
      };
    }
    case 'create_organization':
    case 'update_organization':
    case 'delete_organization': {
      const org = { org_id: id(rng, 'org-').slice(0, 16), name: rng.pick(TEAM_NAMES) };
      if (action === 'create_organization') {
        return { ...org, max_cycle_acu_limit: rng.pick([null, 5_000, 10_000]), max_session_acu_limit: null };
      }
      if (action === 'update_organization') {
        return {
          ...org,
          changes: { max_cycle_acu_limit: { from: rng.pick([null, 5_000]), to: rng.pick([10_000, 25_000]) } },
        };
      }
      return { ...org, removed: { sessions: rng.int(0, 300), knowledge_notes: rng.int(0, 12) } };
    }
    case 'update_acu_limit':
    case 'delete_acu_limit': {
      const enterprise = rng.chance(0.3);
      return {
        scope: enterprise ? 'enterprise' : 'org',
        ...(enterprise ? {} : { org_id: id(rng, 'org-').slice(0, 16) }),
        cycle_acu_limit: action === 'delete_acu_limit' ? null : rng.pick([5_000, 10_000, 25_000, 250_000]),
        previous_cycle_acu_limit: rng.pick([null, 5_000, 10_000]),
      };
    }
    case 'update_org_group_limits': {
      const group = () => ({
        org_ids: [id(rng, 'org-').slice(0, 16)],
        max_cycle_acus: rng.pick([null, 40_000, 60_000]),
      });
      return {
        groups: { 'Revenue products': group(), 'Platform and tooling': group() },
        previous_groups: { 'Revenue products': group() },
      };
    }
    case 'update_allowed_tags':
      return {
        mode: rng.pick(['append', 'replace', 'remove']),
        tags: ['backend', 'security', 'compliance'],
        previous_tags: ['backend', 'security'],
      };
    case 'update_default_tag':
      return { default_tag: rng.pick(['compliance', 'backend', null]), previous_default_tag: null };
    default:
      return undefined;
  }
}

/** Roles of IdP groups and service users, and schedules paused by the service. */
function roleData(rng: Rng, action: string): Record<string, unknown> | undefined {
  switch (action) {
    case 'assign_idp_group_role':
    case 'update_idp_group_role':
    case 'remove_idp_group_role':
      return {
        idp_group_name: rng.pick(IDP_GROUP_NAMES),
        role: action === 'remove_idp_group_role' ? null : rng.pick(ENTERPRISE_ROLES),
        previous_role: action === 'assign_idp_group_role' ? null : rng.pick(ENTERPRISE_ROLES),
      };
    case 'assign_org_idp_group_role':
    case 'update_org_idp_group_role':
    case 'remove_org_idp_group_role':
      return {
        idp_group_name: rng.pick(IDP_GROUP_NAMES),
        role: action === 'remove_org_idp_group_role' ? null : rng.pick(ORG_ROLES),
        previous_role: action === 'assign_org_idp_group_role' ? null : rng.pick(ORG_ROLES),
      };
    case 'assign_service_user_role':
    case 'update_service_user_role':
    case 'assign_org_service_user_role':
    case 'update_org_service_user_role': {
      const org = action.includes('_org_');
      return {
        service_user_id: id(rng, ID_PREFIX.serviceUser),
        name: rng.pick(SERVICE_USER_NAMES),
        role: rng.pick(org ? ORG_ROLES : ENTERPRISE_ROLES),
        previous_role: action.startsWith('assign_') ? null : rng.pick(org ? ORG_ROLES : ENTERPRISE_ROLES),
      };
    }
    case 'remove_org_service_user':
      return {
        service_user_id: id(rng, ID_PREFIX.serviceUser),
        name: rng.pick(SERVICE_USER_NAMES),
        deleted: rng.chance(0.5),
      };
    case 'pause_schedule':
      return {
        scheduled_session_id: `sched-${rng.hex(12)}`,
        name: rng.pick(['Nightly dependency bump', 'Weekday triage', 'Flaky test sweep']),
        paused_reason: rng.pick([
          'its creator, a service user, was deleted',
          "its creator's credential expired",
          'its creator no longer holds UseAgentSessions in this organization',
        ]),
      };
    default:
      return undefined;
  }
}

const TEAM_NAMES = ['Search Relevance', 'Checkout', 'ML Platform', 'Partner Integrations', 'Design Systems'];

const OFFICE_RANGES = ['10.20.0.0/16', '192.168.50.0/24', '203.0.113.0/24', '198.51.100.17', '2001:db8:4200::/48'];
