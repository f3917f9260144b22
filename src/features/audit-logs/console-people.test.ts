/** An audit entry of the console's service user reads as the person whose console write it was. */
import { describe, expect, it } from 'vitest';
import type { ActivityEntry } from '@/api/console/activity';
import { matchConsoleWrite, personLabel } from './console-people';

const write = (id: number, at: number, org: string | null, name: string): ActivityEntry => ({
  id,
  at,
  subject: name.toLowerCase(),
  name,
  email: `${name.toLowerCase()}@example.com`,
  method: 'oidc',
  grant: 'group console-admins → admin',
  operation_id: 'gitPermissions.replace',
  http_method: 'PUT',
  path: '/api/x',
  org_id: org,
  ids: {},
  status: 200,
  outcome: 'succeeded',
});

describe('matchConsoleWrite', () => {
  const activity = [write(1, 1000, 'org-a', 'Ana'), write(2, 1003, 'org-b', 'Dana'), write(3, 2000, 'org-a', 'Hugo')];

  it('takes the closest write of the same organization within the window', () => {
    expect(matchConsoleWrite({ created_at: 1002, org_id: 'org-a', user_id: null }, activity)?.name).toBe('Ana');
    expect(matchConsoleWrite({ created_at: 1002, org_id: 'org-b', user_id: null }, activity)?.name).toBe('Dana');
    expect(matchConsoleWrite({ created_at: 1500, org_id: 'org-a', user_id: null }, activity)).toBeUndefined();
  });

  it('leaves an entry a person made with their own account as it is', () => {
    expect(matchConsoleWrite({ created_at: 1000, org_id: 'org-a', user_id: 'user-1' }, activity)).toBeUndefined();
    expect(personLabel(activity[0]!)).toBe('Ana');
  });
});
