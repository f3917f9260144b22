/** The doctor's tables and prose fit the terminal: long cells wrap between words, nothing is cut off. */
import { describe, expect, it } from 'vitest';
import { table, wrap } from './doctor-format';

describe('the doctor text output', () => {
  it('a table with a 600-character cell fits 80 columns, its rule too, and keeps every word', () => {
    const permissions = Array.from({ length: 40 }, (_, i) => `ManagePermission${i}`).join(', ');
    const lines = table(
      ['CHECK', 'RESULT'],
      [
        ['permissions', permissions],
        ['host', '127.0.0.1'],
      ],
      80,
    );
    expect(permissions.length).toBeGreaterThan(600);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(lines[1]).toMatch(/^ {2}─+ {2}─+$/);
    const cell = lines
      .slice(2, -1)
      .map((l) => l.slice('  permissions  '.length))
      .join(' ');
    expect(cell).toBe(permissions);
    expect(lines.at(-1)).toBe('  host         127.0.0.1');
  });

  it('the free-text column gives way first; paths break after a slash', () => {
    const lines = table(
      ['OPERATION', 'NEEDS', 'DETAIL'],
      [['sessions.get', 'ViewOrgSessions', '/v3/organizations/org-6a2a24b93d07/sessions/session-e9752dd8840bf9e6']],
      70,
    );
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(70);
    expect(lines[2]).toMatch(/^ {2}sessions\.get {2}ViewOrgSessions {2}\/v3\/organizations\/org-6a2a24b93d07\/$/);
    expect(wrap('a b c', 3)).toEqual(['a b', 'c']);
    expect(wrap('first line then more', 40, 10)).toEqual(['first line', 'then more']);
  });
});
