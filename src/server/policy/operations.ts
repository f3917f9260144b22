/**
 * Which operation a request is, from the contract: its id, the permission it needs and the organization it
 * acts in (the `{org_id}` path parameter), for the API's paths under `/api` and the console's own under
 * `/console`. The console's operations carry no permission in their table (they are guarded by sign-in), so
 * the one each needs is named here, after the API operation it stands for.
 */
import { operationList, type OperationDef } from '../../api/operations';
import { consoleOperationList } from '../../api/console';
import type { Permission } from '../../api/permissions';

export interface MatchedOperation {
  id: string;
  /** null: any signed-in person with any role may call it. */
  permission: Permission | null;
  /** The organization it acts in; null for an enterprise-wide operation. */
  org: string | null;
  /** Path parameters, decoded (the ids it touches). */
  params: Record<string, string>;
}

/**
 * The console's operations that need a permission: what the API operation they stand for needs. A console
 * operation not listed reads freely (GET) and needs every permission to write (see `consoleRule`).
 */
export const CONSOLE_OPERATION_PERMISSIONS: Record<string, Permission | null> = {
  'console.health': null,
  'console.config': null,
  'console.doctor.get': null,
  'console.doctor.summary.get': null,
  'console.doctor.runs.create': null,
  'console.gitPermissions.get': 'ManageGitIntegrations',
  'console.gitPermissions.replace': 'ManageGitIntegrations',
  'console.gitPermissions.clear': 'ManageGitIntegrations',
  'console.gitPermissions.update': 'ManageGitIntegrations',
  'console.gitPermissions.revisions.list': 'ManageGitIntegrations',
  'console.gitPermissions.revisions.diff': 'ManageGitIntegrations',
  'console.gitPermissions.revisions.get': 'ManageGitIntegrations',
  'console.gitPermissions.revisions.restore': 'ManageGitIntegrations',
  'console.ipAccessList.get': 'ManageEnterpriseSettings',
  'console.ipAccessList.apply': 'ManageEnterpriseSettings',
  'console.ipAccessList.revisions.list': 'ManageEnterpriseSettings',
  'console.ipAccessList.revisions.get': 'ManageEnterpriseSettings',
  'console.ipAccessList.revisions.restore': 'ManageEnterpriseSettings',
  'console.activity.list': 'ViewAccountAuditLogs',
  // Settings written through the console's guarded endpoints need what the API's own operations need. A role
  // change (members, service users, IdP groups at any level) stays unlisted: only an admin role may make it,
  // since the console's credential could otherwise grant more than the person's roles hold.
  'console.settings.organizations.create': 'ManageOrganizations',
  'console.settings.organizations.update': 'ManageOrganizations',
  'console.settings.organizations.delete': 'ManageOrganizations',
  'console.settings.acuLimits.set': 'ManageBilling',
  'console.settings.orgGroupLimits.replace': 'ManageOrganizations',
  'console.settings.orgTags.change': 'ManageOrganizations',
  // Reading one's notifications, marking them read or acknowledged and asking for a check now change nothing
  // upstream: anyone signed in may. Rules and webhooks stay unlisted (read by any role, written by an admin).
  'console.alerts.notifications.list': null,
  'console.alerts.unreadCount.get': null,
  'console.alerts.notificationReads.create': null,
  'console.alerts.notificationReads.apply': null,
  'console.alerts.acknowledgements.create': null,
  'console.alerts.evaluations.create': null,
  // A plan changes nothing; applying one (and recording live state as a revision) is an admin's.
  'console.configuration.validate': null,
  'console.configuration.plan': null,
};

interface Template {
  id: string;
  method: string;
  regex: RegExp;
  names: string[];
  literals: number;
  permission: Permission | null | 'unlisted';
}

function compile(id: string, method: string, path: string, permission: Template['permission']): Template {
  const names: string[] = [];
  const segments = path.split('/');
  const pattern = segments
    .map((s) => {
      const m = /^\{(\w+)\}$/.exec(s);
      if (!m) return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1]!);
      return '([^/]+)';
    })
    .join('/');
  return {
    id,
    method,
    regex: new RegExp(`^${pattern}/?$`),
    names,
    literals: segments.length - names.length,
    permission,
  };
}

const byLiterals = (a: Template, b: Template) => b.literals - a.literals;

const apiTemplates: Template[] = operationList
  .flatMap((op: OperationDef) =>
    [op.path, ...(op.alternates ?? [])].map((p) =>
      compile(op.id, op.method, p, op.permission === 'AnyCredential' ? null : op.permission),
    ),
  )
  .sort(byLiterals);

const consoleTemplates: Template[] = consoleOperationList
  .map((op) =>
    compile(
      op.id,
      op.method,
      op.path,
      op.id in CONSOLE_OPERATION_PERMISSIONS ? CONSOLE_OPERATION_PERMISSIONS[op.id]! : 'unlisted',
    ),
  )
  .sort(byLiterals);

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

function match(templates: Template[], method: string, path: string) {
  const m = method === 'HEAD' ? 'GET' : method;
  for (const t of templates) {
    if (t.method !== m) continue;
    const found = t.regex.exec(path);
    if (!found) continue;
    const params: Record<string, string> = {};
    t.names.forEach((n, i) => (params[n] = decode(found[i + 1]!)));
    return { template: t, params };
  }
  return undefined;
}

/**
 * The operation of an API request (`path` without `/api` and without the query), or undefined when the
 * contract does not know it.
 */
export function apiOperationOf(method: string, path: string): MatchedOperation | undefined {
  const found = match(apiTemplates, method, path);
  if (!found) return undefined;
  const perm = found.template.permission;
  return {
    id: found.template.id,
    permission: perm === 'unlisted' ? null : perm,
    org: found.params.org_id ?? null,
    params: found.params,
  };
}

/**
 * The operation of a console request (`/console/...`, without the query). `needsAdmin`: a write the console
 * names no permission for (a newer endpoint), which only a role holding every permission may make.
 */
export function consoleOperationOf(
  method: string,
  path: string,
): (MatchedOperation & { needsAdmin: boolean }) | undefined {
  const found = match(consoleTemplates, method, path);
  if (!found) return undefined;
  const perm = found.template.permission;
  const write = method !== 'GET' && method !== 'HEAD';
  return {
    id: found.template.id,
    permission: perm === 'unlisted' ? null : perm,
    org: found.params.org_id ?? null,
    params: found.params,
    needsAdmin: perm === 'unlisted' && write,
  };
}
