/** The bulk editor's pure model: validation as the contract says, CSV/JSON round trips, and rebasing an edit. */
import { describe, expect, it } from 'vitest';
import { describeMatcher, diffGitPermissionSets, gitPermissionSetVersion } from '@/api/git-permissions/set-diff';
import { makeEditedPair, runGitPermissionBench } from '../../../bench/git-permissions-model';
import {
  parseCsv,
  parseImport,
  parseJson,
  rebaseDraft,
  toCsv,
  toDraftRow,
  toInput,
  toJson,
  validateDraft,
} from './set-model';

describe('validateDraft', () => {
  it('flags the matcher rule, duplicates and unknown connections per row and field', () => {
    const rows = [
      { git_connection_id: 'c1', repo_path: 'a/b' },
      { git_connection_id: 'c1', repo_path: 'a/b' },
      { git_connection_id: 'c1' },
      { git_connection_id: 'c1', repo_path: 'a/c', group_prefix: 'a' },
      { git_connection_id: 'nope', group_prefix: 'a' },
    ].map(toDraftRow);
    const v = validateDraft(rows, new Set(['c1']));
    expect(v.byRow.has(0)).toBe(false);
    expect(v.byRow.get(1)?.repo_path?.[0]).toMatch(/Duplicate of permissions\[0\]/);
    expect(v.byRow.get(2)?.repo_path?.[0]).toMatch(/Set one matcher/);
    expect(v.byRow.get(3)?.group_prefix?.[0]).toMatch(/only one matcher/);
    expect(v.byRow.get(4)?.git_connection_id?.[0]).toMatch(/Unknown git connection/);
    expect(v.duplicates).toBe(1);
    expect(v.invalidRows).toBe(4);
  });
});

describe('import and export', () => {
  const items = [
    { git_connection_id: 'c1', repo_path: 'a/b', prefix_path: null, group_prefix: null, read_only: true },
    { git_connection_id: 'c2', repo_path: null, prefix_path: 'x,"y"/', group_prefix: null, read_only: false },
  ];
  it('round-trips CSV (quoted cells) and JSON', () => {
    const csv = toCsv(items);
    expect(parseCsv(csv).items.map((i) => toInput(toDraftRow(i)))).toEqual(items);
    expect(parseJson(toJson(items)).items.map((i) => toInput(toDraftRow(i)))).toEqual(items);
    expect(parseImport(toJson(items)).items).toHaveLength(2);
    expect(parseImport(csv).items).toHaveLength(2);
  });
  it('guards spreadsheet formulas in the export and re-imports the same set', () => {
    const risky = [
      { git_connection_id: 'c1', repo_path: '=HYPERLINK("x")', prefix_path: null, group_prefix: null, read_only: true },
      { git_connection_id: 'c1', repo_path: null, prefix_path: '-team/', group_prefix: null, read_only: false },
      { git_connection_id: 'c1', repo_path: null, prefix_path: null, group_prefix: '@ops', read_only: false },
      { git_connection_id: 'c1', repo_path: '\uFF1D1+1', prefix_path: null, group_prefix: null, read_only: false },
      { git_connection_id: 'c1', repo_path: "'+already", prefix_path: null, group_prefix: null, read_only: false },
    ];
    const csv = toCsv(risky);
    expect(csv.split('\r\n').slice(1, 5)).toEqual([
      `c1,"'=HYPERLINK(""x"")",,,true`,
      `c1,,'-team/,,false`,
      `c1,,,'@ops,false`,
      `c1,'\uFF1D1+1,,,false`,
    ]);
    const back = parseCsv(csv);
    expect(back.errors).toEqual([]);
    expect(back.items.map((i) => toInput(toDraftRow(i)))).toEqual(risky);
    expect(gitPermissionSetVersion(back.items.map((i) => toInput(toDraftRow(i))))).toBe(gitPermissionSetVersion(risky));
  });
  it('reports what it cannot read', () => {
    expect(parseCsv('repo_path\na/b').errors[0]).toMatch(/git_connection_id is missing/);
    expect(parseCsv('git_connection_id,repo_path,read_only\nc,a/b,maybe').errors[0]).toMatch(/Line 2: read_only/);
    expect(parseJson('{').errors[0]).toMatch(/Not valid JSON/);
    expect(parseJson('{"x":1}').errors[0]).toMatch(/permissions/);
    expect(parseImport('  ').errors[0]).toMatch(/Nothing to import/);
  });
});

describe('rebaseDraft', () => {
  it('applies the admin’s edit on top of a set that changed meanwhile, reporting overlaps', () => {
    const base = [
      { git_connection_id: 'c', repo_path: 'a/1', read_only: false },
      { git_connection_id: 'c', repo_path: 'a/2', read_only: false },
      { git_connection_id: 'c', repo_path: 'a/3', read_only: false },
    ];
    // Mine: toggle a/1, remove a/2, add a/4.
    const draft = [
      toDraftRow({ ...base[0]!, read_only: true }),
      toDraftRow(base[2]!),
      toDraftRow({ git_connection_id: 'c', repo_path: 'a/4' }),
    ];
    // Theirs: toggle a/3, add a/5, remove a/1.
    const current = [
      { git_connection_id: 'c', repo_path: 'a/2', read_only: false },
      { git_connection_id: 'c', repo_path: 'a/3', read_only: true },
      { git_connection_id: 'c', repo_path: 'a/5', read_only: false },
    ];
    const r = rebaseDraft(base, draft, current, describeMatcher);
    const result = r.rows.map(toInput);
    expect(result.map((p) => `${p.repo_path}:${p.read_only}`).sort()).toEqual([
      'a/1:true',
      'a/3:true',
      'a/4:false',
      'a/5:false',
    ]);
    expect(r.conflicts).toEqual([expect.stringMatching(/a\/1: the other change removed it/)]);
  });
});

describe('bench helpers', () => {
  it('build an edited pair of 200 and time the diff', () => {
    const { before, after } = makeEditedPair(200);
    expect(before).toHaveLength(200);
    expect(after).toHaveLength(200);
    const d = diffGitPermissionSets(before, after);
    expect(d.removed.length).toBe(10);
    expect(d.added.length).toBe(10);
    expect(d.changed.length).toBeGreaterThan(0);
    expect(gitPermissionSetVersion(before)).not.toBe(gitPermissionSetVersion(after));
    const results = runGitPermissionBench(5);
    expect(results.every((r) => r.medianMs >= 0)).toBe(true);
  });
});
