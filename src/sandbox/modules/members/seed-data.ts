/**
 * What the members seed is made of: the built-in and custom roles with their permissions, people's names, IdP
 * groups and the roles they map to, and a dozen service users (some expired, one deleted) beside the two demo
 * credentials.
 */
import { PERMISSIONS, READ_PERMISSIONS, type Permission } from '../../../api/permissions';

export interface RoleSeed {
  role_id: string;
  role_name: string;
  role_type: 'enterprise' | 'org';
  is_built_in: boolean;
  /** Built-in roles that follow the code: the admin holds every permission, the viewer every read permission. */
  permissions: () => readonly Permission[];
}

/** Everything an organization-level role can usefully hold: the permissions of organization-scope operations. */
const ORG_ADMIN: readonly Permission[] = [
  'UseAgentSessions',
  'ViewOrgSessions',
  'ManageOrgSessions',
  'ViewOrgMembership',
  'ViewOrgMetrics',
  'ViewOrgAuditLogs',
  'ManageOrgSchedules',
  'ManageOrgSecrets',
  'ManageAccountKnowledge',
  'IndexOrgRepositories',
  'ManageRepoBlueprints',
  'ManageOrgServiceUsers',
];

export const ROLE_IDS = {
  enterpriseAdmin: 'role-enterprise-admin',
  enterpriseMember: 'role-enterprise-member',
  enterpriseViewer: 'role-enterprise-viewer',
  billingAdmin: 'role-billing-admin',
  securityAuditor: 'role-security-auditor',
  platformAutomation: 'role-platform-automation',
  serviceUserManager: 'role-service-user-manager',
  orgAdmin: 'role-org-admin',
  orgMember: 'role-org-member',
  orgViewer: 'role-org-viewer',
  sessionOperator: 'role-session-operator',
  repositoryMaintainer: 'role-repository-maintainer',
} as const;

const fixed = (perms: readonly Permission[]) => () => perms;

/** In the order `roles.list` answers them: enterprise roles first, built-in ones before custom ones. */
export const ROLE_SEEDS: readonly RoleSeed[] = [
  {
    role_id: ROLE_IDS.enterpriseAdmin,
    role_name: 'Enterprise Admin',
    role_type: 'enterprise',
    is_built_in: true,
    permissions: () => PERMISSIONS,
  },
  {
    role_id: ROLE_IDS.enterpriseMember,
    role_name: 'Enterprise Member',
    role_type: 'enterprise',
    is_built_in: true,
    permissions: fixed(['ViewAccountOrganizations']),
  },
  {
    role_id: ROLE_IDS.enterpriseViewer,
    role_name: 'Enterprise Viewer',
    role_type: 'enterprise',
    is_built_in: true,
    permissions: () => READ_PERMISSIONS,
  },
  {
    role_id: ROLE_IDS.billingAdmin,
    role_name: 'Billing Admin',
    role_type: 'enterprise',
    is_built_in: false,
    permissions: fixed(['ViewAccountOrganizations', 'ManageBilling', 'ViewAccountMetrics', 'ViewOrgMetrics']),
  },
  {
    role_id: ROLE_IDS.securityAuditor,
    role_name: 'Security Auditor',
    role_type: 'enterprise',
    is_built_in: false,
    permissions: fixed([
      'ViewAccountOrganizations',
      'ViewAccountAuditLogs',
      'ViewOrgAuditLogs',
      'ViewAccountMembership',
      'ViewOrgMembership',
      'ViewAccountSessions',
      'ViewOrgSessions',
      'ManageEnterpriseSettings',
    ]),
  },
  {
    role_id: ROLE_IDS.platformAutomation,
    role_name: 'Platform Automation',
    role_type: 'enterprise',
    is_built_in: false,
    permissions: fixed([
      'ViewAccountOrganizations',
      'ManageGitIntegrations',
      'IndexOrgRepositories',
      'ManageRepoBlueprints',
      'ManageAccountKnowledge',
      'UseAgentSessions',
      'ViewOrgSessions',
    ]),
  },
  {
    role_id: ROLE_IDS.serviceUserManager,
    role_name: 'Service User Manager',
    role_type: 'enterprise',
    is_built_in: false,
    permissions: fixed([
      'ViewAccountOrganizations',
      'ViewAccountMembership',
      'ManageAccountServiceUsers',
      'ManageOrgServiceUsers',
      'UseAgentSessions',
      'ViewOrgSessions',
      'ViewOrgMetrics',
    ]),
  },
  {
    role_id: ROLE_IDS.orgAdmin,
    role_name: 'Org Admin',
    role_type: 'org',
    is_built_in: true,
    permissions: fixed(ORG_ADMIN),
  },
  {
    role_id: ROLE_IDS.orgMember,
    role_name: 'Org Member',
    role_type: 'org',
    is_built_in: true,
    permissions: fixed(['UseAgentSessions', 'ViewOrgSessions', 'ViewOrgMembership', 'ViewOrgMetrics']),
  },
  {
    role_id: ROLE_IDS.orgViewer,
    role_name: 'Org Viewer',
    role_type: 'org',
    is_built_in: true,
    permissions: fixed(['ViewOrgSessions', 'ViewOrgMembership', 'ViewOrgMetrics', 'ViewOrgAuditLogs']),
  },
  {
    role_id: ROLE_IDS.sessionOperator,
    role_name: 'Session Operator',
    role_type: 'org',
    is_built_in: false,
    permissions: fixed(['UseAgentSessions', 'ViewOrgSessions', 'ManageOrgSessions', 'ViewOrgMetrics']),
  },
  {
    role_id: ROLE_IDS.repositoryMaintainer,
    role_name: 'Repository Maintainer',
    role_type: 'org',
    is_built_in: false,
    permissions: fixed(['IndexOrgRepositories', 'ManageRepoBlueprints', 'ViewOrgSessions']),
  },
];

export const FIRST_NAMES = [
  'Aisha',
  'Alejandro',
  'Amara',
  'Anders',
  'Ananya',
  'Beatriz',
  'Bilal',
  'Carmen',
  'Chen',
  'Chiara',
  'Daniel',
  'Dmitri',
  'Elena',
  'Emeka',
  'Fatima',
  'Felix',
  'Grace',
  'Hana',
  'Hiroshi',
  'Ibrahim',
  'Ingrid',
  'Isabel',
  'Jamal',
  'Jia',
  'Jonas',
  'Kavya',
  'Kenji',
  'Lars',
  'Leila',
  'Lucas',
  'Maya',
  'Mateo',
  'Mei',
  'Nadia',
  'Noah',
  'Olga',
  'Omar',
  'Priya',
  'Rafael',
  'Rosa',
  'Samir',
  'Sara',
  'Sofia',
  'Tariq',
  'Tomas',
  'Valentina',
  'Wei',
  'Yara',
  'Yusuf',
  'Zoe',
];

export const LAST_NAMES = [
  'Abe',
  'Adeyemi',
  'Almeida',
  'Andersen',
  'Bauer',
  'Becker',
  'Chandra',
  'Costa',
  'Dubois',
  'Eriksson',
  'Fischer',
  'Garcia',
  'Haddad',
  'Hansen',
  'Ito',
  'Ivanova',
  'Jensen',
  'Kim',
  'Kowalski',
  'Kumar',
  'Larsen',
  'Li',
  'Lopez',
  'Mahmoud',
  'Martin',
  'Meyer',
  'Moreau',
  'Nakamura',
  'Nguyen',
  'Novak',
  'Okafor',
  'Olsen',
  'Park',
  'Patel',
  'Petrov',
  'Popescu',
  'Rahman',
  'Rossi',
  'Santos',
  'Schmidt',
  'Silva',
  'Singh',
  'Suzuki',
  'Tanaka',
  'Torres',
  'Verma',
  'Wagner',
  'Wang',
  'Yilmaz',
  'Zhang',
];

/** People in the seed: several hundred, most of them with direct roles, some only through IdP groups. */
export const SEED_USER_COUNT = 420;
export const SEED_IDP_ONLY_USERS = 60;

export interface IdpGroupSeed {
  name: string;
  /** Enterprise-wide role, if any. */
  enterprise_role?: string;
  /** Organization roles, by the index of the organization in seed order. */
  org_roles?: Array<[orgIndex: number, roleId: string]>;
}

/** Groups mapped to enterprise roles; each organization also gets `eng-<org>` (Org Member), see the seed. */
export const IDP_GROUP_SEEDS: readonly IdpGroupSeed[] = [
  { name: 'all-engineering', enterprise_role: ROLE_IDS.enterpriseMember },
  { name: 'eng-leads', enterprise_role: ROLE_IDS.enterpriseViewer },
  { name: 'security-team', enterprise_role: ROLE_IDS.securityAuditor },
  { name: 'finance-ops', enterprise_role: ROLE_IDS.billingAdmin },
  {
    name: 'contractors',
    org_roles: [
      [2, ROLE_IDS.orgViewer],
      [6, ROLE_IDS.orgViewer],
    ],
  },
  { name: 'payments-oncall', org_roles: [[1, ROLE_IDS.sessionOperator]] },
  { name: 'platform-admins', org_roles: [[0, ROLE_IDS.orgAdmin]] },
  // Registered but mapped to no role yet.
  { name: 'sso-pilot' },
  { name: 'interns-2026' },
];

export interface ServiceUserSeed {
  service_user_id: string;
  name: string;
  /** Index of the organization it was created in; absent: the enterprise's. */
  home_org?: number;
  enterprise_role?: string;
  org_roles?: Array<[orgIndex: number, roleId: string]>;
  created_days_ago: number;
  /** Days from now (negative: already expired). */
  expires_in_days?: number;
  deleted_days_ago?: number;
}

/** A dozen service users besides the demo ones; the first two act in the sessions seed. */
export const SERVICE_USER_SEEDS: readonly ServiceUserSeed[] = [
  {
    service_user_id: 'service-user-ci-bot',
    name: 'CI Bot',
    enterprise_role: ROLE_IDS.platformAutomation,
    created_days_ago: 410,
  },
  {
    service_user_id: 'service-user-release-bot',
    name: 'Release Automation',
    enterprise_role: ROLE_IDS.enterpriseMember,
    org_roles: [
      [0, ROLE_IDS.sessionOperator],
      [1, ROLE_IDS.sessionOperator],
      [2, ROLE_IDS.sessionOperator],
    ],
    created_days_ago: 380,
  },
  {
    service_user_id: 'service-user-terraform',
    name: 'Terraform Provisioner',
    enterprise_role: ROLE_IDS.serviceUserManager,
    created_days_ago: 300,
    expires_in_days: 200,
  },
  {
    service_user_id: 'service-user-chat-integration',
    name: 'Chat Integration',
    enterprise_role: ROLE_IDS.enterpriseMember,
    org_roles: [
      [0, ROLE_IDS.orgMember],
      [3, ROLE_IDS.orgMember],
      [4, ROLE_IDS.orgMember],
      [6, ROLE_IDS.orgMember],
    ],
    created_days_ago: 260,
  },
  {
    service_user_id: 'service-user-issue-sync',
    name: 'Issue Tracker Sync',
    home_org: 0,
    org_roles: [[0, ROLE_IDS.orgMember]],
    created_days_ago: 240,
  },
  {
    service_user_id: 'service-user-nightly-triage',
    name: 'Nightly Triage Bot',
    home_org: 1,
    org_roles: [[1, ROLE_IDS.sessionOperator]],
    created_days_ago: 200,
    expires_in_days: 165,
  },
  {
    service_user_id: 'service-user-security-scanner',
    name: 'Security Scanner',
    enterprise_role: ROLE_IDS.securityAuditor,
    created_days_ago: 180,
  },
  {
    service_user_id: 'service-user-payments-automation',
    name: 'Payments Org Automation',
    home_org: 1,
    org_roles: [[1, ROLE_IDS.orgAdmin]],
    created_days_ago: 150,
  },
  {
    service_user_id: 'service-user-data-export',
    name: 'Data Export Job',
    enterprise_role: ROLE_IDS.enterpriseViewer,
    created_days_ago: 335,
    expires_in_days: 30,
  },
  {
    service_user_id: 'service-user-onboarding',
    name: 'Onboarding Workflow',
    enterprise_role: ROLE_IDS.enterpriseMember,
    created_days_ago: 385,
    expires_in_days: -20,
  },
  {
    service_user_id: 'service-user-mobile-release',
    name: 'Mobile Release Bot',
    home_org: 2,
    org_roles: [[2, ROLE_IDS.repositoryMaintainer]],
    created_days_ago: 410,
    expires_in_days: -45,
  },
  {
    service_user_id: 'service-user-legacy-deploy',
    name: 'Legacy Deploy Key',
    enterprise_role: ROLE_IDS.platformAutomation,
    created_days_ago: 700,
    deleted_days_ago: 90,
  },
];
