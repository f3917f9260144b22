/** Reading pasted lists: what is sent, what is flagged, and the limits the contract refuses. */
import { describe, expect, it } from 'vitest';
import { InviteUsersBody, MEMBER_LIMITS } from '@/api/operations/members';
import { RegisterIdpGroupsBody } from '@/api/operations/idp-groups';
import { readIdpGroupNames, readInvitations, splitInviteLine } from './paste-list';

describe('bulk invitation', () => {
  it('reads addresses by line, comma, semicolon and space, and mail-program “Name <address>”', () => {
    expect(splitInviteLine('a@x.io, b@x.io;c@x.io d@x.io')).toEqual(['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io']);
    expect(splitInviteLine('Ada Lovelace <ada@x.io>, "Hopper, Grace" <grace@x.io>')).toEqual([
      'ada@x.io',
      'grace@x.io',
    ]);
    const list = readInvitations('Ada Lovelace <ADA@x.io>\n\n  bob@x.io , carol@x.io\r\ndan@x.io');
    expect(list.sent).toEqual(['ada@x.io', 'bob@x.io', 'carol@x.io', 'dan@x.io']);
    expect(list.entries.map((e) => e.line)).toEqual([1, 3, 3, 4]);
    expect(list.valid).toBe(4);
  });

  it('flags repeats in any letter case, keeps the first and sends each address once', () => {
    const list = readInvitations('ada@x.io\nbob@x.io\nADA@X.IO, bob@x.io');
    expect(list.sent).toEqual(['ada@x.io', 'bob@x.io']);
    expect(list.repeated.map((e) => [e.text, e.line, e.repeats])).toEqual([
      ['ADA@X.IO', 3, 0],
      ['bob@x.io', 3, 1],
    ]);
    expect(list.malformed).toEqual([]);
  });

  it('flags malformed and over-long addresses with the contract’s reason, and the schema refuses them', () => {
    const long = `${'a'.repeat(250)}@x.io`;
    const list = readInvitations(`ada@x.io\nnot-an-address\nbob@\n${long}`);
    expect(list.malformed.map((e) => [e.line, e.text.slice(0, 14), e.problem])).toEqual([
      [2, 'not-an-address', 'not a valid email address'],
      [3, 'bob@', 'not a valid email address'],
      [4, 'aaaaaaaaaaaaaa', `an email address is at most ${MEMBER_LIMITS.email} characters`],
    ]);
    expect(list.valid).toBe(1);
    // Malformed entries are sent as typed, so the form's schema (the API's) refuses the whole request.
    const parsed = InviteUsersBody.safeParse({ emails: list.sent, enterprise_role_id: 'role-x' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toEqual(['emails.1', 'emails.2', 'emails.3']);
  });

  it('counts what is sent against the limit of 100: 100 pass, 101 are refused with the count', () => {
    const addresses = (n: number) => Array.from({ length: n }, (_, i) => `user${i}@example.com`);
    const hundred = readInvitations(addresses(100).join('\n'));
    expect(hundred.sent).toHaveLength(MEMBER_LIMITS.invitationsPerCall);
    expect(InviteUsersBody.safeParse({ emails: hundred.sent, enterprise_role_id: 'r' }).success).toBe(true);

    // 101 distinct addresses: refused, saying how many.
    const over = readInvitations(addresses(101).join(', '));
    const refused = InviteUsersBody.safeParse({ emails: over.sent, enterprise_role_id: 'r' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('At most 100 invitations per call; this request has 101');

    // 100 distinct addresses and repeats: the repeats are not sent, so it passes.
    const repeats = readInvitations([...addresses(100), 'USER1@example.com', 'user2@example.com'].join('\n'));
    expect(repeats.sent).toHaveLength(100);
    expect(repeats.repeated).toHaveLength(2);
  });

  it('reads an empty paste as nothing to send, which the schema refuses', () => {
    const list = readInvitations(' \n , ;\n');
    expect(list.entries).toEqual([]);
    expect(InviteUsersBody.safeParse({ emails: list.sent, enterprise_role_id: 'r' }).success).toBe(false);
  });
});

describe('IdP group registration', () => {
  it('reads one name per line (commas and spaces are part of a name), flags repeats and malformed names', () => {
    const list = readIdpGroupNames('eng, platform\n  security-team  \nSecurity-Team\na/b\n..\n' + 'x'.repeat(257));
    expect(list.sent.slice(0, 2)).toEqual(['eng, platform', 'security-team']);
    expect(list.repeated.map((e) => e.text)).toEqual(['Security-Team']);
    expect(list.malformed.map((e) => e.problem)).toEqual([
      'an IdP group name holds no / or \\ and is not . or ..',
      'an IdP group name holds no / or \\ and is not . or ..',
      'an IdP group name is at most 256 characters',
    ]);
    expect(RegisterIdpGroupsBody.safeParse({ idp_group_names: list.sent }).success).toBe(false);
  });

  it('refuses 101 names with the count', () => {
    const list = readIdpGroupNames(Array.from({ length: 101 }, (_, i) => `group-${i}`).join('\n'));
    const parsed = RegisterIdpGroupsBody.safeParse({ idp_group_names: list.sent });
    expect(parsed.error?.issues[0]?.message).toBe('At most 100 IdP groups per registration; this request has 101');
  });
});
