/**
 * Live state as a configuration document (`export`): every organization with its settings and contents, the
 * enterprise's settings, flat (no fragments), in YAML that `plan` reports as "no changes". A secret is written
 * by key and type with the environment variable its value would be read from — never a value (the API never
 * answers one). Secrets of the deprecated dictionary type cannot be created again and are left out.
 */
import { stringify } from 'yaml';
import { CONFIG_DOCUMENT_VERSION, SECRET_TYPES_FOR_DOCUMENT } from '../../../api/config-document/schema';
import type { LiveView } from './live';

/** The environment variable an exported secret's value is read from: SECRET_<ORGANIZATION>_<KEY>. */
export function envNameFor(org: string, key: string): string {
  const slug = (s: string) =>
    s
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '');
  return `SECRET_${slug(org)}_${slug(key)}`.slice(0, 128).replace(/_+$/, '');
}

export function documentOf(view: LiveView): Record<string, unknown> {
  const e = view.enterprise;
  const enterprise: Record<string, unknown> = {};
  if (e.acu_limit !== undefined) enterprise.acu_limit = e.acu_limit;
  if (e.ip_access_list) enterprise.ip_access_list = e.ip_access_list;
  if (e.org_group_limits) enterprise.org_group_limits = e.org_group_limits;
  if (e.idp_groups) enterprise.idp_groups = e.idp_groups;
  if (e.service_users) enterprise.service_users = e.service_users;
  if (e.playbooks) enterprise.playbooks = e.playbooks;
  const organizations = view.organizations.map((o) => {
    const out: Record<string, unknown> = {
      name: o.name,
      acu_limit: o.acu_limit,
      session_acu_limit: o.session_acu_limit,
    };
    if (o.allowed_tags) out.allowed_tags = o.allowed_tags;
    if (o.default_tag !== undefined) out.default_tag = o.default_tag;
    if (o.git_permissions) out.git_permissions = o.git_permissions;
    if (o.notes) out.notes = o.notes;
    if (o.playbooks) out.playbooks = o.playbooks;
    if (o.schedules) out.schedules = o.schedules;
    if (o.secrets) {
      out.secrets = o.secrets
        .filter((s) => (SECRET_TYPES_FOR_DOCUMENT as readonly string[]).includes(s.type))
        .map((s) => ({
          key: s.key,
          type: s.type,
          value_from_env: envNameFor(o.name, s.key),
          ...(s.note !== undefined ? { note: s.note } : {}),
          ...(s.is_sensitive !== undefined ? { is_sensitive: s.is_sensitive } : {}),
        }));
    }
    if (o.idp_groups) out.idp_groups = o.idp_groups.filter((g) => g.role);
    return out;
  });
  return { version: CONFIG_DOCUMENT_VERSION, enterprise, organizations };
}

export function exportYaml(view: LiveView, generatedAt: Date): string {
  const header =
    `# The enterprise's configuration, exported by the Agent Platform Console on ${generatedAt.toISOString()}.\n` +
    '# Secrets are named by key and type; their values are read from the environment variables named here.\n' +
    '# yaml-language-server: $schema=./agent-platform-config.schema.json\n';
  return header + stringify(documentOf(view), { lineWidth: 0, aliasDuplicateObjects: false });
}
