/**
 * The git-permission and git-connection operations of the API (spec: "Replace git permissions for an
 * organization" and the further operations; shapes from the vendor reference where the spec says "not shown").
 */
import { z } from 'zod';
import { OrgId, PageQuery } from '../conventions';
import { pageOf } from '../page';
import { GitConnection, GitConnectionRepository, GitPermission } from '../git-permissions/resources';
import {
  GitPermissionBulkCreateRequest,
  GitPermissionParams,
  GitPermissionUpdateRequest,
  GitRepositoriesQuery,
} from '../git-permissions/rules';
import { defineOperations } from './define';

const OrgParams = z.object({ org_id: OrgId });

const PERMISSIONS_PATH = '/v3/enterprise/organizations/{org_id}/git-providers/permissions';

export const gitPermissionOperations = defineOperations({
  'gitPermissions.list': {
    id: 'gitPermissions.list',
    method: 'GET',
    path: PERMISSIONS_PATH,
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: "List an organization's git permissions",
    params: OrgParams,
    query: PageQuery,
    response: pageOf(GitPermission),
    paginated: true,
  },
  'gitPermissions.replace': {
    id: 'gitPermissions.replace',
    method: 'PUT',
    path: PERMISSIONS_PATH,
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: "Replace an organization's whole set of git permissions (at most 200)",
    params: OrgParams,
    body: GitPermissionBulkCreateRequest,
    response: z.array(GitPermission),
    note: 'Matcher rule chosen by the console: exactly one of repo_path, prefix_path, group_prefix per item. Items equal to an existing permission (same connection and matcher) keep its id and created_at in the sandbox.',
  },
  'gitPermissions.create': {
    id: 'gitPermissions.create',
    method: 'POST',
    path: PERMISSIONS_PATH,
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: 'Add git permissions to an organization (bulk, at most 200)',
    params: OrgParams,
    body: GitPermissionBulkCreateRequest,
    response: z.array(GitPermission),
    note: 'In the vendor reference (bulk create), not in the spec. An item equal to an existing permission is refused as a duplicate.',
  },
  'gitPermissions.clear': {
    id: 'gitPermissions.clear',
    method: 'DELETE',
    path: PERMISSIONS_PATH,
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: "Clear an organization's git permissions; answers with the removed set",
    params: OrgParams,
    response: z.array(GitPermission),
  },
  'gitPermissions.update': {
    id: 'gitPermissions.update',
    method: 'PATCH',
    path: `${PERMISSIONS_PATH}/{git_permission_id}`,
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: 'Update one git permission (read_only)',
    params: GitPermissionParams,
    body: GitPermissionUpdateRequest,
    response: GitPermission,
    note: 'Request and response shapes from the vendor reference: {read_only} in, the permission out.',
  },
  'gitPermissions.delete': {
    id: 'gitPermissions.delete',
    method: 'DELETE',
    path: `${PERMISSIONS_PATH}/{git_permission_id}`,
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: 'Delete one git permission; answers with the removed permission',
    params: GitPermissionParams,
    response: GitPermission,
    note: 'In the vendor reference, not in the spec.',
  },
  'gitConnections.list': {
    id: 'gitConnections.list',
    method: 'GET',
    path: '/v3/enterprise/git-providers/connections',
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: "List the enterprise's git connections",
    query: PageQuery,
    response: pageOf(GitConnection),
    paginated: true,
    note: 'Permission not shown in the spec; ManageGitIntegrations chosen, as for the connection repositories.',
  },
  'gitConnections.repositories.list': {
    id: 'gitConnections.repositories.list',
    method: 'GET',
    path: '/v3/enterprise/git-providers/connections/{connection_id}/repositories',
    permission: 'ManageGitIntegrations',
    scope: 'enterprise',
    summary: "List a git connection's repositories, filtered by name",
    params: z.object({ connection_id: z.string().min(1) }),
    query: GitRepositoriesQuery,
    response: pageOf(GitConnectionRepository),
    paginated: true,
    note: 'filter_name matches repo_name or repo_path, case-insensitive, anywhere in the text.',
  },
});
