/** Stale access: unused from the consumption the API gave, expiring from `expires_at`, absent fields never guessed. */
import { describe, expect, it } from 'vitest';
import { DAY_SECONDS } from '@/api/billing-day';
import { lastUsed, needsReview, reviewRow, windowOf, type Candidate } from './review';

const NOW = Date.UTC(2026, 10, 27, 2, 21) / 1000;
const member: Candidate = {
  kind: 'member',
  id: 'user-1',
  name: 'Carmen Bauer',
  secondary: 'c@x',
  roles: [],
  expires_at: undefined,
};
const bot: Candidate = {
  kind: 'service_user',
  id: 'su-1',
  name: 'CI Bot',
  secondary: 'su-1',
  roles: [],
  expires_at: NOW + 3 * DAY_SECONDS,
};

describe('stale access', () => {
  it('reads the last billing day with compute units, and lists who had none', () => {
    const w = windowOf(30, NOW);
    expect((w.time_before - w.time_after) / DAY_SECONDS).toBe(30);
    const days = [
      { date: w.time_after, acus: 1 },
      { date: w.time_after + 5 * DAY_SECONDS, acus: 0.5 },
      { date: w.time_after + 6 * DAY_SECONDS, acus: 0 },
    ];
    expect(lastUsed({ total_acus: 1.5, consumption_by_date: days })).toBe(w.time_after + 5 * DAY_SECONDS);
    const used = reviewRow(member, { resp: { total_acus: 1.5, consumption_by_date: days } }, NOW, 14);
    expect(used).toMatchObject({ unused: false, expiring: false, expires_at: undefined });
    expect(needsReview(used)).toBe(false);
    const idle = reviewRow(member, { resp: { total_acus: 0, consumption_by_date: [] } }, NOW, 14);
    expect(idle.unused).toBe(true);
  });

  it('flags an expiry within the window, keeps "never" and "not published" apart, and never drops an unread row', () => {
    const used = { resp: { total_acus: 1, consumption_by_date: [{ date: NOW, acus: 1 }] } };
    expect(reviewRow(bot, used, NOW, 7).expiring).toBe(true);
    expect(reviewRow(bot, used, NOW, 2).expiring).toBe(false);
    expect(reviewRow({ ...bot, expires_at: null }, used, NOW, 30).expiring).toBe(false);
    const unread = reviewRow(member, { error: 'Rate limited' }, NOW, 14);
    expect(unread).toMatchObject({ unused: false, usage_error: 'Rate limited' });
    expect(needsReview(unread)).toBe(true);
  });
});
