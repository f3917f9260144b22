// @vitest-environment jsdom
/** Pure helpers of the sessions screens: URL filters, live merge, create body, status badge. */
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Session } from '@/api/operations/sessions';
import { mergePages, type SessionsPages } from './api';
import { formFieldOf, toCreateBody, type CreateSessionValues } from './create-session-form';
import { toListFilters } from './filters';
import { SessionSearch } from './search';
import { firstPageBriefly, FIRST_PAGE_WAIT_MS } from './list-query';
import { liveSessionIds, MAX_POLLED_SESSIONS } from './live';
import { prNumber } from './sessions-list';
import { SessionStatusBadge } from './status-badge';

const session = (id: string, status: string, extra: Partial<Session> = {}): Session => ({
  session_id: id,
  url: `https://x/${id}`,
  status,
  org_id: 'org-1',
  created_at: 1,
  updated_at: 1,
  tags: [],
  acus_consumed: 0,
  pull_requests: [],
  is_archived: false,
  ...extra,
});

describe('URL filters', () => {
  it('reads comma-joined, repeated and JSON-array values, and drops what it cannot read', () => {
    expect(SessionSearch.parse({ origins: 'slack,api' }).origins).toBe('slack,api');
    expect(SessionSearch.parse({ origins: ['slack', 'api,cli'] }).origins).toBe('slack,api,cli');
    expect(SessionSearch.parse({ archived: true }).archived).toBe('true');
    expect(SessionSearch.parse({ archived: 'maybe' }).archived).toBeUndefined();
    expect(SessionSearch.parse({ created_after: 'soon' }).created_after).toBeUndefined();
    expect(SessionSearch.parse({ created_after: 1700000000 }).created_after).toBe(1700000000);
  });

  it('turns the URL into API filters, dropping unknown origins', () => {
    const search = SessionSearch.parse({
      origins: 'slack,fax',
      status: 'running',
      tags: 'a,b',
      archived: 'false',
      org_ids: 'org-1',
    });
    expect(toListFilters(search, 'org')).toEqual({
      origins: ['slack'],
      status: ['running'],
      tags: ['a', 'b'],
      is_archived: 'false',
    });
    expect(toListFilters(search, 'enterprise').org_ids).toEqual(['org-1']);
  });
});

describe("the list route's wait for its first page", () => {
  const settledWithin = async (p: Promise<void>, ms: number) => {
    let done = false;
    void p.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(ms);
    return done;
  };

  it('waits for the first page when the list is entered, at most a moment, and never fails', async () => {
    vi.useFakeTimers();
    try {
      let answer: () => void = () => {};
      const page = new Promise<void>((resolve) => (answer = resolve));
      const entered = firstPageBriefly(page, 'enter');
      expect(await settledWithin(entered, 10)).toBe(false);
      answer();
      expect(await settledWithin(entered, 0)).toBe(true);

      const slow = firstPageBriefly(new Promise(() => {}), 'enter');
      expect(await settledWithin(slow, FIRST_PAGE_WAIT_MS - 1)).toBe(false);
      expect(await settledWithin(slow, 1)).toBe(true);

      await expect(firstPageBriefly(Promise.reject(new Error('503')), 'enter')).resolves.toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not wait when the filters change on the list', async () => {
    await expect(firstPageBriefly(new Promise(() => {}), 'stay')).resolves.toBeUndefined();
  });
});

describe('live statuses', () => {
  it('polls only sessions that are not terminal, unknown statuses included, at most one page', () => {
    const ids = liveSessionIds([
      session('a', 'running'),
      session('b', 'exit'),
      session('c', 'suspended'),
      session('d', 'paused_by_admin'),
      session('e', 'error'),
    ]);
    expect(ids).toEqual(['a', 'd']);
    expect(liveSessionIds(Array.from({ length: 300 }, (_, i) => session(`s${i}`, 'new')))).toHaveLength(
      MAX_POLLED_SESSIONS,
    );
  });

  it('merges fresh sessions into loaded pages, keeping pages and cursors, and reuses what did not change', () => {
    const old: SessionsPages = {
      pageParams: [undefined, 'c1'],
      pages: [
        { items: [session('a', 'running'), session('b', 'exit')], end_cursor: 'c1', has_next_page: true },
        { items: [session('c', 'new')], end_cursor: null, has_next_page: false },
      ],
    };
    const merged = mergePages(old, new Map([['c', session('c', 'claimed', { updated_at: 2 })]]));
    expect(merged.pages).toHaveLength(2);
    expect(merged.pageParams).toEqual([undefined, 'c1']);
    expect(merged.pages[0]).toBe(old.pages[0]);
    expect(merged.pages[1]!.items[0]!.status).toBe('claimed');
    expect(merged.pages[1]!.end_cursor).toBeNull();
    expect(mergePages(old, new Map([['a', session('a', 'running')]]))).toBe(old);
  });
});

describe('create form', () => {
  const values: CreateSessionValues = {
    prompt: 'Do it',
    agent_mode: '',
    title: ' ',
    tags: 'a, b,,',
    playbook_id: '',
    session_secrets: [{ key: 'K', value: 'V', sensitive: true }],
    create_as_user_id: '',
    session_links: 'https://a\n\nhttps://b',
    bypass_approval: false,
  };
  it('leaves empty optional fields out (agent_mode: the organization default)', () => {
    expect(toCreateBody(values)).toEqual({
      prompt: 'Do it',
      tags: ['a', 'b'],
      session_secrets: [{ key: 'K', value: 'V', sensitive: true }],
      session_links: ['https://a', 'https://b'],
    });
  });
  it('places errors on the fields that show them', () => {
    expect(formFieldOf('tags.3')).toBe('tags');
    expect(formFieldOf('session_secrets.0.key')).toBe('session_secrets.0.key');
    expect(formFieldOf('prompt')).toBe('prompt');
    expect(formFieldOf('repos.0')).toBeNull();
  });
});

describe('status badge', () => {
  it('shows an unknown status as it is, with its detail', () => {
    render(<SessionStatusBadge status="paused_by_admin" detail="waiting_for_review" />);
    expect(screen.getByTestId('session-status').textContent).toBe('paused_by_admin');
    expect(screen.getByText(/waiting for review/)).toBeTruthy();
  });
  it('numbers pull requests from their URL', () => {
    expect(prNumber('https://github.com/acme/web/pull/123')).toBe('#123');
    expect(prNumber('https://example.com/x')).toBe('PR');
  });
});
