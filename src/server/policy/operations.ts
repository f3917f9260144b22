/**
 * Which operation a request is, from the contract: its id, what the console's policy requires (the API
 * operation's permission; a console operation's own `permission` field) and the organization it acts in — the
 * `{org_id}` path parameter, or where the operation's definition names it otherwise: another path parameter, or
 * a top-level field of its JSON body (read by `bodyOrganization` before the request goes on). Everything here
 * is read from the two operation tables: no second list of rules — also which writes grant a role (a body field
 * `role_id` or `enterprise_role_id`), checked against the person's roles by role-grants.ts.
 */
import { operationList, type OperationDef } from '../../api/operations';
import { consoleOperationList } from '../../api/console';
import { consolePermissionOf, type ConsoleOperationDef, type ConsolePermission } from '../../api/console/define';

export interface MatchedOperation {
  id: string;
  /** null: any console role will do; 'admin': only a role holding every permission everywhere. */
  permission: ConsolePermission;
  /** The organization it acts in; null for an enterprise-wide operation (or one whose body is not read yet). */
  org: string | null;
  /** Path parameters, decoded (the ids it touches). */
  params: Record<string, string>;
  /** The top-level field of the JSON body that names its organization, when the path does not. */
  orgInBody?: string;
  /**
   * The top-level fields of the JSON body that name a role it grants (`role_id`, `enterprise_role_id`): a write
   * that gives a member, an IdP group or a service user a role, checked against the person's roles too.
   */
  roleFields?: readonly string[];
}

interface Template {
  id: string;
  method: string;
  regex: RegExp;
  names: string[];
  literals: number;
  permission: ConsolePermission;
  /** The path parameter naming the organization (`org_id`, or another the definition names). */
  orgParam: string;
  orgInBody?: string;
  roleFields?: readonly string[];
}

function compile(
  id: string,
  method: string,
  path: string,
  rule: Pick<Template, 'permission' | 'orgParam' | 'orgInBody' | 'roleFields'>,
): Template {
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
    ...rule,
  };
}

const byLiterals = (a: Template, b: Template) => b.literals - a.literals;

/**
 * An API write whose path names no organization but whose JSON body does at its top level (`org_id`): the
 * organization it acts in is read from the body.
 */
function apiOrgInBody(op: OperationDef, path: string): string | undefined {
  if (op.method === 'GET' || path.includes('{org_id}') || !op.body) return undefined;
  const shape = (op.body as { shape?: Record<string, unknown> }).shape;
  return shape && 'org_id' in shape ? 'org_id' : undefined;
}

/** The body fields that name a role to grant, wherever an operation's body has one. */
export const ROLE_ID_FIELDS = ['role_id', 'enterprise_role_id'] as const;

/** The fields of a write's JSON body that name a role it grants (undefined: it grants none). */
export function roleFieldsOf(op: { method: string; body?: unknown }): readonly string[] | undefined {
  if (op.method === 'GET' || !op.body) return undefined;
  const shape = (op.body as { shape?: Record<string, unknown> }).shape;
  const fields = shape ? ROLE_ID_FIELDS.filter((f) => f in shape) : [];
  return fields.length ? fields : undefined;
}

const apiTemplates: Template[] = operationList
  .flatMap((op: OperationDef) =>
    [op.path, ...(op.alternates ?? [])].map((p) =>
      compile(op.id, op.method, p, {
        permission: op.permission === 'AnyCredential' ? null : op.permission,
        orgParam: 'org_id',
        orgInBody: apiOrgInBody(op, p),
        roleFields: roleFieldsOf(op),
      }),
    ),
  )
  .sort(byLiterals);

const consoleTemplates: Template[] = consoleOperationList
  .map((op: ConsoleOperationDef) => {
    const source = op.organization;
    return compile(op.id, op.method, op.path, {
      permission: consolePermissionOf(op),
      orgParam: source && 'param' in source ? source.param : 'org_id',
      orgInBody: source && 'body' in source && op.method !== 'GET' ? source.body : undefined,
      roleFields: roleFieldsOf(op),
    });
  })
  .sort(byLiterals);

const decode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** An organization named as `enterprise` (a level parameter) is no organization. */
const orgValue = (v: string | undefined) => (v && v !== 'enterprise' ? v : null);

function match(templates: Template[], method: string, path: string): MatchedOperation | undefined {
  const m = method === 'HEAD' ? 'GET' : method;
  for (const t of templates) {
    if (t.method !== m) continue;
    const found = t.regex.exec(path);
    if (!found) continue;
    const params: Record<string, string> = {};
    t.names.forEach((n, i) => (params[n] = decode(found[i + 1]!)));
    return {
      id: t.id,
      permission: t.permission,
      org: orgValue(params[t.orgParam]),
      params,
      ...(t.orgInBody ? { orgInBody: t.orgInBody } : {}),
      ...(t.roleFields ? { roleFields: t.roleFields } : {}),
    };
  }
  return undefined;
}

/**
 * The operation of an API request (`path` without `/api` and without the query), or undefined when the
 * contract does not know it.
 */
export function apiOperationOf(method: string, path: string): MatchedOperation | undefined {
  return match(apiTemplates, method, path);
}

/** The operation of a console request (`/console/...`, without the query). */
export function consoleOperationOf(method: string, path: string): MatchedOperation | undefined {
  return match(consoleTemplates, method, path);
}

/** The operation of a request under `/api` or `/console` (`pathname` without the query). */
export function operationOf(method: string, pathname: string): MatchedOperation | undefined {
  const isApi = pathname === '/api' || pathname.startsWith('/api/');
  return isApi ? apiOperationOf(method, pathname.slice('/api'.length)) : consoleOperationOf(method, pathname);
}

/** The organization a JSON body names in `field` (a non-empty string of at most 200 characters), else null. */
export function organizationInBody(body: unknown, field: string): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const v = (body as Record<string, unknown>)[field];
  return typeof v === 'string' && v.length > 0 && v.length <= 200 ? orgValue(v) : null;
}
