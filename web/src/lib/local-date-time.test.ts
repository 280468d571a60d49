import { describe, expect, it } from 'vitest';

import { instantOf, localDateInput, localDateTimeInput, startOfLocalDay } from './local-date-time.ts';

describe('a datetime-local value', () => {
  it('shows a date to the minute in local time', () => {
    expect(localDateTimeInput(new Date(2026, 10, 3, 7, 5, 59))).toBe('2026-11-03T07:05');
  });

  it('names the local instant it reads', () => {
    expect(instantOf('2026-11-30T23:00')?.getTime()).toBe(new Date(2026, 10, 30, 23, 0).getTime());
    expect(instantOf('2026-11-30T23:00:30')?.getTime()).toBe(new Date(2026, 10, 30, 23, 0, 30).getTime());
    expect(instantOf(localDateTimeInput(new Date(2027, 0, 1, 0, 0)))?.getTime()).toBe(new Date(2027, 0, 1).getTime());
  });

  it('names none when empty or impossible', () => {
    for (const value of ['', '2026-11-30', '2026-02-30T10:00', '2026-11-30T24:00', 'now']) expect(instantOf(value)).toBeNull();
  });
});

describe('a date value', () => {
  it('shows the local day of an instant', () => {
    expect(localDateInput(new Date(2026, 0, 9, 23, 59))).toBe('2026-01-09');
  });

  it('names the local midnight that starts its day, or none', () => {
    expect(startOfLocalDay('2027-02-28')?.getTime()).toBe(new Date(2027, 1, 28).getTime());
    for (const value of ['', '2027-02-29', '28/02/2027', '2027-02-28T10:00']) expect(startOfLocalDay(value)).toBeNull();
  });
});
