/**
 * Where the console's contract (the spec) and the vendor's real service (`reference/vendor-openapi.json`) differ
 * on purpose: each difference the spec mandates, with its reason, in one place. The faithfulness test
 * (`src/sandbox/faithfulness.test.ts`) reads this list and fails on any difference that is not in it; the README
 * repeats it for people. A vendor-shaped sandbox (`SANDBOX_SHAPE=vendor`) shows none of these.
 */

export type VendorDifference =
  /** The spec names an operation's path differently; the contract lists the vendor's path as an alternate. */
  | {
      readonly kind: 'path';
      readonly method: string;
      readonly specPath: string;
      readonly vendorPath: string;
      readonly reason: string;
    }
  /**
   * Fields the spec-shaped sandbox's answers carry beyond the vendor's schema (`schema` is the vendor's component
   * name, or `(answer)` for an unnamed top-level schema). A client must treat them as optional: the vendor never
   * sends them.
   */
  | {
      readonly kind: 'answer-field';
      readonly schema: string;
      readonly fields: readonly string[];
      readonly reason: string;
    }
  /**
   * Fields the console sends beside the vendor's own in a request body (`schema`: the vendor's request schema):
   * the spec's name for a field, sent with the vendor's so that both services understand the request.
   */
  | {
      readonly kind: 'request-field';
      readonly schema: string;
      readonly fields: readonly string[];
      readonly reason: string;
    }
  /**
   * Enum values the spec has and the vendor's schema lacks: accepted in the spec shape's answers, never sent by
   * the console. The vendor-shaped sandbox writes the nearest vendor value instead (`src/sandbox/vendor-shape.ts`).
   */
  | {
      readonly kind: 'enum-value';
      readonly schema: string;
      readonly field: string;
      readonly values: readonly string[];
      readonly reason: string;
    };

const SPEC_NAMES_V3BETA1 =
  'The spec lists organization members under /v3beta1/organizations/{org_id}/members/… (and says members were promoted to /v3/); the vendor serves them under /v3/enterprise/organizations/{org_id}/members/….';
const SPEC_NAMES_AGENT =
  'The spec names the agent-neutral `acu-limits/agent`; the vendor serves its product name `acu-limits/devin`.';
const CONTRACT_EXTRA =
  'The spec does not show these fields ("Fields of … roles, users, members, service users …: not shown"); the contract adds them, optional: a screen that needs one and does not get it says that the API does not publish it.';

export const VENDOR_DIFFERENCES: readonly VendorDifference[] = [
  // Paths: the contract's operation keeps the spec's path first and lists the vendor's as an alternate.
  ...(['users', 'idp-users'] as const).map((kind): VendorDifference => ({
    kind: 'path',
    method: 'GET',
    specPath: `/v3beta1/organizations/{org_id}/members/${kind}`,
    vendorPath: `/v3/enterprise/organizations/{org_id}/members/${kind}`,
    reason: SPEC_NAMES_V3BETA1,
  })),
  {
    kind: 'path',
    method: 'GET',
    specPath: '/v3/enterprise/consumption/acu-limits/agent',
    vendorPath: '/v3/enterprise/consumption/acu-limits/devin',
    reason: SPEC_NAMES_AGENT,
  },
  ...(['PUT', 'DELETE'] as const).map((method): VendorDifference => ({
    kind: 'path',
    method,
    specPath: '/v3/enterprise/consumption/acu-limits/agent/organizations/{org_id}',
    vendorPath: '/v3/enterprise/consumption/acu-limits/devin/organizations/{org_id}',
    reason: SPEC_NAMES_AGENT,
  })),

  // Answers of the spec-shaped sandbox: fields beyond the vendor's.
  {
    kind: 'answer-field',
    schema: 'Role',
    fields: ['permissions', 'is_built_in'],
    reason: `The spec defines a role as "a set of named permissions" and the console's Roles and Effective access screens show them; the vendor's Role has none. ${CONTRACT_EXTRA}`,
  },
  {
    kind: 'answer-field',
    schema: 'User',
    fields: ['idp_role_assignments', 'idp_group_names', 'created_at'],
    reason: `Members' "Through IdP groups" and "Joined" columns. ${CONTRACT_EXTRA}`,
  },
  {
    kind: 'answer-field',
    schema: 'UserWithIdpRoles',
    fields: ['idp_group_names', 'created_at'],
    reason: `A member's IdP groups and when they joined. ${CONTRACT_EXTRA}`,
  },
  {
    kind: 'answer-field',
    schema: 'ServiceUser',
    fields: ['created_at', 'org_id'],
    reason: `When a service user was created and the organization it was created in. ${CONTRACT_EXTRA}`,
  },
  {
    kind: 'answer-field',
    schema: 'IdpGroup',
    fields: ['member_count', 'created_at'],
    reason: `IdP groups' member count and registration time. ${CONTRACT_EXTRA}`,
  },
  {
    kind: 'answer-field',
    schema: 'IdpGroupResponse',
    fields: ['role_assignments', 'member_count', 'created_at'],
    reason: `The registered groups' list carries each group's roles, so the IdP groups screen needs one request. ${CONTRACT_EXTRA}`,
  },
  {
    kind: 'answer-field',
    schema: 'SecretResponse',
    fields: ['created_by_name'],
    reason:
      "Who created a secret, by name beside the vendor's `created_by` id. The spec does not show secrets' fields; the console shows the id when the name is absent.",
  },
  {
    kind: 'answer-field',
    schema: 'ScheduleResponse',
    fields: ['next_run_at', 'last_session_id', 'create_as_user_id', 'run_as_user_id', 'paused_reason', 'paused_at'],
    reason:
      "The schedules screen's next run, last run's session, whose name runs it, and why and since when it is paused. The spec does not show schedules' fields (\"Fields of schedules, …: not shown\"); the vendor's answer has none of these (it takes `create_as_user_id` and `run_as_user_id` on requests only), so a client must treat them as optional.",
  },

  // Enum values.
  {
    kind: 'enum-value',
    schema: 'SecretResponse',
    field: 'secret_type',
    values: ['dictionary'],
    reason:
      'The spec: "Secret types: cookie, key-value, totp, and dictionary (recognized on read; creating a secret of type dictionary is deprecated)". The vendor\'s enum has no dictionary.',
  },
  {
    kind: 'enum-value',
    schema: 'SecretCreateRequest',
    field: 'type',
    values: ['dictionary'],
    reason:
      "The contract's create body names dictionary only to refuse it (422, deprecated): the console never sends it.",
  },

  {
    kind: 'enum-value',
    schema: 'ScheduleResponse',
    field: 'agent',
    values: ['agent'],
    reason:
      'The spec names the default agent with its agent-neutral word (as in `acu-limits/agent` and `sessions/{agent_id}`); the vendor says `devin`. The contract reads both; the vendor-shaped sandbox answers `devin`.',
  },
  ...(['ScheduleCreateRequest', 'ScheduleUpdateRequest'] as const).map((schema): VendorDifference => ({
    kind: 'enum-value',
    schema,
    field: 'agent',
    values: ['agent'],
    reason:
      "The contract accepts the spec's `agent` beside the vendor's `devin` (stored as `agent`); the console's schedule form sends no agent, and a client that names one should send `devin`, which both accept.",
  })),

  // Requests.
  {
    kind: 'request-field',
    schema: 'KnowledgeNoteCreateRequest',
    fields: ['trigger_description'],
    reason:
      'The spec names the note trigger `trigger_description`, the vendor `trigger`: the console sends both, with the same text.',
  },
];
