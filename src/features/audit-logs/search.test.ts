/** The explorer's URL state: defaults, preset resolution, local ↔ UTC inputs, principal values. */
import { describe, expect, it } from 'vitest';
import {
  AuditLogSearch,
  fromLocalInput,
  parsePrincipalValue,
  principalValue,
  resolveBounds,
  toFilters,
  toLocalInput,
  toUrlSearch,
} from './search';

describe('AuditLogSearch', () => {
  it('falls back to defaults instead of failing on unreadable values', () => {
    expect(AuditLogSearch.parse({})).toEqual({ range: 'all', order: 'desc' });
    expect(AuditLogSearch.parse({ range: 'forever', order: 'sideways', action: 'drop table', time_after: -4 })).toEqual(
      { range: 'all', order: 'desc' },
    );
  });

  it('keeps custom bounds only for a custom range, and leaves defaults out of the URL', () => {
    const s = AuditLogSearch.parse({ range: '24h', time_after: 5, order: 'asc', action: 'create_secret' });
    expect(toFilters(s)).toEqual({ range: '24h', order: 'asc', action: 'create_secret' });
    expect(toUrlSearch(s)).toEqual({ range: '24h', order: 'asc', action: 'create_secret' });
    expect(toUrlSearch(AuditLogSearch.parse({ range: 'all', order: 'desc' }))).toEqual({});
    const c = AuditLogSearch.parse({ range: 'custom', time_after: 100, time_before: 200 });
    expect(toFilters(c)).toMatchObject({ time_after: 100, time_before: 200 });
  });
});

describe('resolveBounds', () => {
  const now = 1_700_000_000_500;
  it('resolves presets to [now − span, now + 1): the current second included', () => {
    expect(resolveBounds({ range: '1h' }, now)).toEqual({
      resolved_at: 1_700_000_000,
      time_after: 1_700_000_000 - 3600,
      time_before: 1_700_000_001,
    });
    expect(resolveBounds({ range: '30d' }, now).time_after).toBe(1_700_000_000 - 30 * 86_400);
    expect(resolveBounds({ range: 'all' }, now)).toEqual({ resolved_at: 1_700_000_000, time_before: 1_700_000_001 });
  });
  it('passes a custom range through, either end open', () => {
    expect(resolveBounds({ range: 'custom', time_after: 10 }, now)).toEqual({
      resolved_at: 1_700_000_000,
      time_after: 10,
    });
  });
});

describe('local time inputs', () => {
  it('round-trips Unix seconds through a datetime-local value', () => {
    for (const t of [0, 1_700_000_000, 1_767_225_599]) expect(fromLocalInput(toLocalInput(t))).toBe(t);
    expect(fromLocalInput('')).toBeUndefined();
    expect(fromLocalInput('2026-13-45T99:00')).toBeUndefined();
  });
});

describe('principal values', () => {
  it('encodes a service user or a user in one select value', () => {
    expect(principalValue({ service_user_id: 'su-1' })).toBe('service_user:su-1');
    expect(parsePrincipalValue('user:u-1')).toEqual({ user_id: 'u-1', service_user_id: undefined });
    expect(parsePrincipalValue('')).toEqual({ service_user_id: undefined, user_id: undefined });
  });
});
