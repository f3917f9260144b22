import { describe, expect, it } from 'vitest';
import { POLICY_REFUSED_TYPE } from '@/api/problem';
import { ApiError } from '@/lib/api-error';
import { describeError } from './problem-view';

describe('describeError', () => {
  it('tells an IP access list lockout apart from a refused credential, without API-key advice', () => {
    const lockout = describeError(
      new ApiError(401, {
        type: 'about:blank',
        title: 'Unauthorized',
        status: 401,
        detail: 'Your address is not allowed',
        reason: 'ip_not_allowed',
      }),
    );
    expect(lockout.title).toMatch(/IP access list locks the console out/);
    expect(lockout.hint).not.toMatch(/AGENT_PLATFORM_API_KEY/);
    const refused = describeError(
      new ApiError(401, { type: 'about:blank', title: 'Unauthorized', status: 401, detail: 'Bad credential' }),
    );
    expect(refused.hint).toMatch(/AGENT_PLATFORM_API_KEY/);
  });

  it("names the console's policy, not the service user's role, when the policy refused", () => {
    const d = describeError(
      new ApiError(403, {
        type: POLICY_REFUSED_TYPE,
        title: "Refused by the console's policy",
        status: 403,
        detail: 'Your console roles (viewer) do not allow ManageGitIntegrations in organization org-1',
        permission: 'ManageGitIntegrations',
        organization: 'org-1',
      }),
    );
    expect(d.title).toBe('Your console role does not allow ManageGitIntegrations');
    expect(d.hint).toMatch(/CONSOLE_POLICY_FILE/);
    expect(d.hint).toMatch(/org-1/);
  });
});
