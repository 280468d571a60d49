import { describe, expect, it } from 'vitest';

import {
  BADGE_CAP,
  DATE_PICKER_MAX,
  DATE_PICKER_MIN,
  NOTICE_MS,
  OVERVIEW_ACTIVITY_MAX,
  OVERVIEW_REFRESH_MS,
  PAGE_SIZE,
  RADIUS_DEFAULT,
  RADIUS_OPTIONS,
  UPTIME_POLL_MS,
} from './constants.ts';

describe('spec §9 constants', () => {
  it('offers OFF (0) then 5 to 200 metres in steps of 5', () => {
    const expected = [0];
    for (let r = 5; r <= 200; r += 5) expected.push(r);

    expect(RADIUS_OPTIONS).toEqual(expected);
    expect(RADIUS_OPTIONS).toHaveLength(41);
    expect(Object.isFrozen(RADIUS_OPTIONS)).toBe(true);
  });

  it('defaults the radius to one of the options', () => {
    expect(RADIUS_DEFAULT).toBe(150);
    expect(RADIUS_OPTIONS).toContain(RADIUS_DEFAULT);
  });

  it('keeps the list, timer and badge limits from the spec', () => {
    expect(PAGE_SIZE).toBe(20);
    expect(OVERVIEW_ACTIVITY_MAX).toBe(50);
    expect(OVERVIEW_REFRESH_MS).toBe(30_000);
    expect(UPTIME_POLL_MS).toBe(5_000);
    expect(NOTICE_MS).toBe(3_000);
    expect(BADGE_CAP).toBe(99);
  });

  it('bounds the date pickers with valid ISO dates', () => {
    expect(DATE_PICKER_MIN).toBe('1900-01-01');
    expect(DATE_PICKER_MAX).toBe('2099-12-31');
    expect(Date.parse(DATE_PICKER_MIN)).toBeLessThan(Date.parse(DATE_PICKER_MAX));
  });
});
