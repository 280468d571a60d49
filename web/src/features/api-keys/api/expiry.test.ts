import { describe, expect, it } from 'vitest';

import { customDateRange, expiryOf } from './expiry.ts';

const NOW = new Date(2026, 10, 23, 15, 30);

describe("an API key's expiry", () => {
  it('is 30 days, 90 days or a year from now', () => {
    expect(expiryOf('30d', '', NOW)?.getTime()).toBe(NOW.getTime() + 30 * 86_400_000);
    expect(expiryOf('1y', '2030-01-01', NOW)?.getTime()).toBe(NOW.getTime() + 365 * 86_400_000);
  });

  it('is the start of a custom day, from tomorrow to 730 days ahead', () => {
    expect(customDateRange(NOW)).toEqual({ min: '2026-11-24', max: '2028-11-22' });
    expect(expiryOf('custom', '2026-11-24', NOW)?.getTime()).toBe(new Date(2026, 10, 24).getTime());
    expect(expiryOf('custom', '2028-11-22', NOW)?.getTime()).toBe(new Date(2028, 10, 22).getTime());
  });

  it('is none for a custom day that is missing, past, today or too far', () => {
    for (const day of ['', '2026-11-22', '2026-11-23', '2028-11-23', '2026-13-01']) expect(expiryOf('custom', day, NOW)).toBeNull();
  });
});
