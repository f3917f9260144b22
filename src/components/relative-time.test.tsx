// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDateTime, formatRelative } from '@/lib/format';
import { setTimeDisplay } from '@/lib/time-display';
import { RelativeTime } from './relative-time';

describe('RelativeTime', () => {
  afterEach(() => act(() => setTimeDisplay('relative')));

  it('reads relative by default and absolute once the admin switches, everywhere at once', () => {
    const t = Math.floor(Date.now() / 1000) - 300;
    render(
      <>
        <RelativeTime value={t} />
        <RelativeTime value={t} />
      </>,
    );
    expect(screen.getAllByText(formatRelative(t))).toHaveLength(2);
    act(() => setTimeDisplay('absolute'));
    expect(screen.getAllByText(formatDateTime(t))).toHaveLength(2);
    expect(localStorage.getItem('console-time-display')).toBe('absolute');
  });
});
