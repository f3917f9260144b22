/**
 * Names that refuse control and text-direction characters: the rule, the service-user create schema the form and
 * the sandbox share (the message names the field as the form labels it), attachment file names, and the sandbox
 * refusing such a service user at both levels with nothing created.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../sandbox/modules/members/seed-data';
import { startTestSandbox } from '../../test/harness';
import { attachmentNameRefusal, cleanAttachmentName } from './attachments';
import { unsafeNameCharacter } from './name-characters';
import { CreateServiceUserBody } from './service-users';

const REFUSED: Array<[string, string]> = [
  ['NUL', '\u0000'],
  ['line feed', '\n'],
  ['escape', '\u001b'],
  ['delete', '\u007f'],
  ['C1 next line', '\u0085'],
  ['C1 last', '\u009f'],
  ['left-to-right mark', '\u200e'],
  ['right-to-left mark', '\u200f'],
  ...[0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069].map((c): [string, string] => [
    `U+${c.toString(16).toUpperCase()}`,
    String.fromCharCode(c),
  ]),
];

describe('the rule', () => {
  it.each(REFUSED)('refuses %s, with its code point and position', (_what, char) => {
    const found = unsafeNameCharacter(`😀ab${char}c`);
    expect(found).not.toBeNull();
    expect(found!.codePoint).toBe(`U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
    // The emoji counts as one character, as people count them.
    expect(found!.position).toBe(4);
  });

  it('accepts ordinary names in any script, spaces and punctuation', () => {
    for (const name of [
      'CI deploys',
      'Slack bot (prod)',
      'données été.pdf',
      'ボット',
      'שלום עולם',
      'تقرير.pdf',
      '😀',
    ]) {
      expect(unsafeNameCharacter(name), name).toBeNull();
    }
  });
});

describe('service-user names (the form and the sandbox share this schema)', () => {
  it.each(REFUSED)('refuses a name with %s, naming the Name field', (_what, char) => {
    const r = CreateServiceUserBody.safeParse({ name: `CI${char}bot`, role_id: ROLE_IDS.enterpriseViewer });
    expect(r.success).toBe(false);
    expect(r.error!.issues).toHaveLength(1);
    expect(r.error!.issues[0]!.path).toEqual(['name']);
    expect(r.error!.issues[0]!.message).toMatch(/^Name contains .+ \(U\+[0-9A-F]{4}\) at character 3; /);
  });

  it('still takes an ordinary name', () => {
    expect(
      CreateServiceUserBody.safeParse({ name: 'Déploiements CI', role_id: ROLE_IDS.enterpriseViewer }).success,
    ).toBe(true);
  });
});

describe('attachment file names', () => {
  it('refuses control and direction characters rather than removing them, naming the File name', () => {
    expect(attachmentNameRefusal('invoice\u202Efdp.exe')).toMatch(
      /^File name contains a right-to-left override \(U\+202E\) at character 8; /,
    );
    expect(cleanAttachmentName('invoice\u202Efdp.exe')).toBeNull();
    expect(cleanAttachmentName('report\u0000.pdf')).toBeNull();
    expect(cleanAttachmentName('C:\\fakepath\\ report.pdf ')).toBe('report.pdf');
    expect(attachmentNameRefusal('..')).toMatch(/^File name cannot be \.\./);
    expect(attachmentNameRefusal('a'.repeat(256))).toMatch(/^File name is at most 255 characters/);
  });
});

describe('the sandbox', () => {
  let sb: Awaited<ReturnType<typeof startTestSandbox>>;
  let orgId: string;
  beforeAll(async () => {
    sb = await startTestSandbox({ tickMs: 60_000 });
    orgId = (await sb.api.get('/v3/enterprise/organizations?first=1')).body.items[0].org_id;
  });
  afterAll(() => sb.stop());

  it('refuses such a service user at both levels (422 on name), creating nothing', async () => {
    const count = async () =>
      (await sb.api.get('/v3beta1/enterprise/service-users?include_inactive=true&first=200')).body.items.length;
    const before = await count();
    for (const [path, role] of [
      ['/v3beta1/enterprise/service-users', ROLE_IDS.enterpriseViewer],
      [`/v3beta1/organizations/${orgId}/service-users`, ROLE_IDS.orgViewer],
    ]) {
      for (const name of ['CI\u0000bot', 'CI\u202Etob', 'CI\u2067bot']) {
        const res = await sb.api.call('POST', path!, { body: { name, role_id: role } });
        expect(res.status, `${path} ${JSON.stringify(name)}`).toBe(422);
        expect(res.body.errors[0].loc).toEqual(['body', 'name']);
        expect(res.body.errors[0].msg).toMatch(/^Name contains /);
        expect(res.body.detail).toMatch(/Name contains .+ at character 3/);
      }
    }
    expect(await count()).toBe(before);
  });
});
