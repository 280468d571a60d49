import { describe, expect, it } from 'vitest';

import {
  badgeText,
  deviceLookup,
  formatCount,
  formatGps,
  formatTimestamp,
  formatVolume,
  gatewayName,
  idOf,
  meterName,
  pluralForm,
  rssiColour,
  splitUptime,
  truncate,
} from './format.ts';

const local = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

describe('formatTimestamp', () => {
  const now = local(2026, 3, 10, 15, 0);

  it('says today at hh:mm for today', () => {
    expect(formatTimestamp(local(2026, 3, 10, 9, 5).toISOString(), now)).toEqual({ kind: 'today', time: '09:05' });
  });

  it('says yesterday at hh:mm for yesterday, across a month boundary', () => {
    const first = local(2026, 3, 1, 12);
    expect(formatTimestamp(local(2026, 2, 28, 23, 59).toISOString(), first)).toEqual({
      kind: 'yesterday',
      time: '23:59',
    });
  });

  it('uses dd-mm-yy, hh:mm otherwise', () => {
    expect(formatTimestamp(local(2025, 12, 31, 7, 3).toISOString(), now)).toEqual({
      kind: 'date',
      text: '31-12-25, 07:03',
    });
  });

  it('gives null for a missing or unreadable value', () => {
    expect(formatTimestamp(null, now)).toBeNull();
    expect(formatTimestamp('not a date', now)).toBeNull();
  });
});

describe('truncate', () => {
  it('keeps short text and cuts long text to the limit with an ellipsis', () => {
    expect(truncate('wmeter/v1/gw', 20)).toBe('wmeter/v1/gw');
    expect(truncate('12345678901234567890', 20)).toBe('12345678901234567890');
    expect(truncate('wmeter/v1/gw/SG01000003/reading', 20)).toBe('wmeter/v1/gw/SG01000…');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(truncate('💧💧💧', 2)).toBe('💧💧…');
  });
});

describe('formatGps', () => {
  it('shows six decimals from an array or a string', () => {
    expect(formatGps([4.8297, 45.768])).toBe('4.829700, 45.768000');
    expect(formatGps('4.8297, 45.768')).toBe('4.829700, 45.768000');
  });

  it('gives null for nothing or nonsense', () => {
    expect(formatGps(null)).toBeNull();
    expect(formatGps('north')).toBeNull();
  });
});

describe('rssiColour', () => {
  it('is green above -60, orange above -80, red otherwise', () => {
    expect(rssiColour(-59)).toBe('success');
    expect(rssiColour(-60)).toBe('warning');
    expect(rssiColour(-79)).toBe('warning');
    expect(rssiColour(-80)).toBe('error');
    expect(rssiColour(-100)).toBe('error');
  });
});

describe('small helpers', () => {
  it('splits uptime into hours, minutes and seconds', () => {
    expect(splitUptime(3 * 3600 + 25 * 60 + 7)).toEqual({ hours: 3, minutes: 25, seconds: 7 });
    expect(splitUptime(-5)).toEqual({ hours: 0, minutes: 0, seconds: 0 });
  });

  it('caps the badge at 99+', () => {
    expect(badgeText(0)).toBe('0');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });

  it('reads a plain id or an $oid', () => {
    expect(idOf('abc')).toBe('abc');
    expect(idOf({ $oid: 'def' })).toBe('def');
  });

  it('falls back to the prefixed serial number when the name is empty', () => {
    expect(gatewayName({ deviceName: '', serialNumber: 'SG01000001' })).toBe('GTW-SG01000001');
    expect(gatewayName({ deviceName: 'North', serialNumber: 'SG01000001' })).toBe('North');
    expect(meterName({ deviceName: null, serialNumber: 'SM01000001' })).toBe('W-SM01000001');
  });

  it('reads a detail parameter as an id or a serial, with or without prefix', () => {
    expect(deviceLookup('6B031854DBDEAC91E41B6334', 'GTW-')).toEqual({ by: 'id', id: '6b031854dbdeac91e41b6334' });
    expect(deviceLookup('GTW-SG01000003', 'GTW-')).toEqual({ by: 'serial', serial: 'SG01000003' });
    expect(deviceLookup('gtw-SG01000003', 'GTW-')).toEqual({ by: 'serial', serial: 'SG01000003' });
    expect(deviceLookup('SG01000003', 'GTW-')).toEqual({ by: 'serial', serial: 'SG01000003' });
    expect(deviceLookup('W-SM01000001', 'W-')).toEqual({ by: 'serial', serial: 'SM01000001' });
  });
});

describe('formatVolume', () => {
  it('shows litres up to 10,000 L and cubic metres above, in the language', () => {
    expect(formatVolume(42, 'en')).toBe('42 L');
    expect(formatVolume(0.25, 'en')).toBe('0.25 L');
    expect(formatVolume(9_999, 'en')).toBe('9,999 L');
    expect(formatVolume(10_000, 'en')).toBe('10,000 L');
    expect(formatVolume(12_345.6, 'en')).toBe('12.346 m³');
    expect(formatVolume(12_345.6, 'fr')).toBe('12,346 m³');
    expect(formatVolume(9_999.5, 'fr').replace(/\s/gu, ' ')).toBe('9 999,5 L');
  });

  it('shows what is not a number as given', () => {
    expect(formatVolume(undefined, 'en')).toBe('');
    expect(formatVolume(Number.NaN, 'en')).toBe('NaN');
  });
});

describe('counts', () => {
  it('gives the form of the noun after a count: one for 1 (and 0 in French), other otherwise', () => {
    expect([0, 1, 2, 28].map((n) => pluralForm(n, 'en'))).toEqual(['other', 'one', 'other', 'other']);
    expect([0, 1, 2, 28, 1_000_000].map((n) => pluralForm(n, 'fr'))).toEqual(['one', 'one', 'other', 'other', 'other']);
  });

  it("writes a count with the language's separators", () => {
    expect(formatCount(1_000, 'en')).toBe('1,000');
    expect(formatCount(1_000, 'fr').replace(/\s/gu, ' ')).toBe('1 000');
    expect(formatCount(2.5, 'fr')).toBe('2,5');
  });
});
