/** The editor's reading of its rows and its reducer: checks, normalization notes, repeats, containment, pastes. */
import { describe, expect, it } from 'vitest';
import { diffIpRanges, lockedOutAddresses } from '@/api/console/ip-access-list';
import { editorReducer, startEditor, type EditorState } from './editor-state';
import { canonicalEntry, checkRows, listOf, mergeRanges, splitRanges, unreadableEntries } from './ranges';

describe('checkRows', () => {
  it('refuses malformed entries with the reason, and ignores empty rows', () => {
    const checks = checkRows(['10.0.0.0/33', '::1/129', '300.1.1.1', '', '10.0.0.0/8']);
    expect(checks[0]).toMatchObject({ state: 'invalid', error: expect.stringMatching(/prefix length.*0 to 32/) });
    expect(checks[1]).toMatchObject({ state: 'invalid', error: expect.stringMatching(/0 to 128/) });
    expect(checks[2]).toMatchObject({ state: 'invalid', error: expect.stringContaining('"300.1.1.1"') });
    expect(checks[3]).toEqual({ state: 'empty' });
    expect(checks[4]).toMatchObject({ state: 'ok', canonical: '10.0.0.0/8' });
  });

  it('flags repeats (the same range however written) and ranges inside another', () => {
    const texts = ['10.0.0.0/8', '10.1.2.0/24', '10.0.0.5/8', '2001:db8::/32', '2001:DB8:0:1::/64', '192.0.2.1'];
    const checks = checkRows(texts);
    expect(checks[2]).toMatchObject({ duplicateOf: 0 });
    expect(checks[1]).toMatchObject({ containedIn: 0 });
    expect(checks[4]).toMatchObject({ containedIn: 3 });
    expect(checks[0]!.containedIn).toBeUndefined();
    expect(checks[5]).toMatchObject({ state: 'ok' });
    expect(checks[5]!.containedIn).toBeUndefined();
    // What is sent: each range once.
    expect(listOf(texts, checks)).toEqual([
      '10.0.0.0/8',
      '10.1.2.0/24',
      '2001:db8::/32',
      '2001:DB8:0:1::/64',
      '192.0.2.1',
    ]);
  });

  it('keeps entries of the loaded list it cannot read: neither errors nor removed when nothing was edited', () => {
    const loaded = ['10.0.0.0/8', '10.0.0.1-10.0.0.9', 'fe80::1%eth0', '192.0.2.0/24'];
    const kept = unreadableEntries(loaded);
    expect([...kept]).toEqual(['10.0.0.1-10.0.0.9', 'fe80::1%eth0']);
    const checks = checkRows(loaded, kept);
    expect(checks.map((c) => c.state)).toEqual(['ok', 'kept', 'kept', 'ok']);
    expect(checks[1]!.error).toContain('10.0.0.1-10.0.0.9');
    const list = listOf(loaded, checks);
    expect(list).toEqual(loaded);
    expect(diffIpRanges(loaded, list)).toEqual({ added: [], removed: [] });
    // Removing one is a removal; typing a new unreadable entry is an error, not kept.
    const edited = [loaded[0]!, loaded[2]!, loaded[3]!, '10.1.1.1-10.1.1.2'];
    const after = checkRows(edited, kept);
    expect(after.map((c) => c.state)).toEqual(['ok', 'kept', 'ok', 'invalid']);
    expect(diffIpRanges(loaded, listOf(edited, after)).removed).toEqual(['10.0.0.1-10.0.0.9']);
  });

  it('gives the canonical form', () => {
    expect(canonicalEntry('10.0.0.5/8')).toBe('10.0.0.0/8');
    expect(canonicalEntry(' 2001:DB8:0:0:0:0:0:1 ')).toBe('2001:db8::1');
    expect(canonicalEntry('192.0.2.1')).toBe('192.0.2.1');
    expect(canonicalEntry('nope')).toBeNull();
  });

  it('splits pasted text on new lines, commas, semicolons and spaces', () => {
    expect(splitRanges('10.0.0.0/8, 192.168.0.0/16\n2001:db8::/32;  ::1 \r\n\n')).toEqual([
      '10.0.0.0/8',
      '192.168.0.0/16',
      '2001:db8::/32',
      '::1',
    ]);
  });
});

describe('diff and lockout', () => {
  it('diffs by range, not by text', () => {
    expect(diffIpRanges(['10.0.0.0/8', '192.0.2.1'], ['10.0.0.5/8', '198.51.100.0/24'])).toEqual({
      added: ['198.51.100.0/24'],
      removed: ['192.0.2.1'],
    });
  });

  it('names the addresses a list would no longer admit; an empty list admits all', () => {
    expect(lockedOutAddresses(['127.0.0.0/8'], ['127.0.0.1', '::1'])).toEqual(['::1']);
    expect(lockedOutAddresses([], ['127.0.0.1', '::1'])).toEqual([]);
    expect(lockedOutAddresses(['::/0', '0.0.0.0/0'], ['127.0.0.1', '::1'])).toEqual([]);
  });
});

describe('editorReducer', () => {
  const texts = (s: EditorState) => s.rows.map((r) => r.text);

  it('normalizes a row when it is left, with a note saying what changed', () => {
    let s = startEditor(['127.0.0.0/8']);
    s = editorReducer(s, { type: 'added', texts: [''] });
    const id = s.rows[1]!.id;
    expect(s.focus).toBe(id);
    s = editorReducer(s, { type: 'changed', id, text: '10.0.0.5/8' });
    expect(texts(s)).toEqual(['127.0.0.0/8', '10.0.0.5/8']);
    s = editorReducer(s, { type: 'left', id });
    expect(texts(s)).toEqual(['127.0.0.0/8', '10.0.0.0/8']);
    expect(s.rows[1]!.note).toMatch(/Normalized from 10\.0\.0\.5\/8.*starts at 10\.0\.0\.0/);
    // Typing again drops the note; an invalid row is left as typed.
    s = editorReducer(s, { type: 'changed', id, text: '10.0.0.0/33' });
    s = editorReducer(s, { type: 'left', id });
    expect(s.rows[1]).toEqual({ id, text: '10.0.0.0/33' });
  });

  it('splits a paste of several entries into rows, and focuses the neighbour of a removed row', () => {
    let s = startEditor(['127.0.0.0/8', '']);
    const empty = s.rows[1]!.id;
    s = editorReducer(s, { type: 'pasted', id: empty, text: '10.0.0.5/8\n192.168.1.0/24, 2001:DB8::/32' });
    expect(texts(s)).toEqual(['127.0.0.0/8', '10.0.0.0/8', '192.168.1.0/24', '2001:db8::/32']);
    s = editorReducer(s, { type: 'pasted', id: s.rows[0]!.id, text: '198.51.100.1 198.51.100.2' });
    expect(texts(s)).toEqual([
      '127.0.0.0/8',
      '198.51.100.1',
      '198.51.100.2',
      '10.0.0.0/8',
      '192.168.1.0/24',
      '2001:db8::/32',
    ]);
    const second = s.rows[1]!.id;
    s = editorReducer(s, { type: 'removed', id: second });
    expect(s.focus).toBe(s.rows[1]!.id);
    expect(new Set(s.rows.map((r) => r.id)).size).toBe(s.rows.length);
    s = editorReducer(s, { type: 'reset', list: ['::1'] });
    expect(texts(s)).toEqual(['::1']);
  });
});

describe('mergeRanges (Add ranges: the API’s append)', () => {
  it('adds only what the list does not hold, however written, and keeps the list as it is', () => {
    const current = ['10.20.0.0/16', 'not-a-range', '2001:db8::/32'];
    const m = mergeRanges(current, [
      '10.20.0.5/16',
      '192.0.2.7/24',
      '192.0.2.0/24',
      '2001:DB8::/32',
      '198.51.100.1',
      'x',
    ]);
    expect(m.added).toEqual(['192.0.2.0/24', '198.51.100.1']);
    expect(m.merged).toEqual([...current, '192.0.2.0/24', '198.51.100.1']);
    expect(m.alreadyListed).toEqual([
      { typed: '10.20.0.5/16', listed: '10.20.0.0/16' },
      { typed: '2001:DB8::/32', listed: '2001:db8::/32' },
    ]);
    expect(m.invalid).toEqual([{ typed: 'x', error: expect.stringContaining('"x"') }]);
  });

  it('adds nothing when everything typed is listed already', () => {
    expect(mergeRanges(['10.0.0.0/8'], ['10.0.0.0/8', ' ']).added).toEqual([]);
  });
});
