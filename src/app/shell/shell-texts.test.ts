/**
 * What the shell says in words: the header queue's explanation (what the level means, what to do), and notes in
 * the command palette told apart by where they live (six notes called "Deploy" must not read alike).
 */
import { describe, expect, it } from 'vitest';
import { noteList } from './command-palette';
import { queueExplanation } from './queue-status';

describe('queueExplanation', () => {
  it('says what the figure is and what to do at each level', () => {
    expect(queueExplanation(110, 'high')).toMatch(/^110 sessions are waiting for a machine.*High: .*Open Capacity/);
    expect(queueExplanation(1, 'normal')).toBe(
      '1 session is waiting for a machine to run on. Normal: new sessions start without waiting long. Nothing to do.',
    );
  });
});

describe('noteList', () => {
  const note = (id: string, org_id: string | null, folder_path: string, trigger = 'when deploying') => ({
    note_id: id,
    name: 'Deploy',
    org_id,
    folder_path,
    trigger,
  });
  it('names the organization (or the enterprise) and folder of each note, and the trigger of notes still alike', () => {
    const orgs = new Map([['org-1', 'Payments Core']]);
    const details = noteList(
      [
        note('n1', 'org-1', 'runbooks'),
        note('n2', null, ''),
        note('n3', 'org-1', 'ops', 'on a release'),
        note('n4', 'org-1', 'ops', 'on a hotfix'),
      ],
      orgs,
    ).map((r) => r.detail);
    expect(details).toEqual([
      'Payments Core · runbooks',
      'Enterprise · no folder',
      'Payments Core · ops · “on a release”',
      'Payments Core · ops · “on a hotfix”',
    ]);
  });
});
