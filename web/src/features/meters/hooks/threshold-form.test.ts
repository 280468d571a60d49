import { describe, expect, it } from 'vitest';

import {
  parseThreshold,
  parseThresholds,
  refusedThresholds,
  thresholdText,
  thresholdTexts,
  type ThresholdTexts,
} from './threshold-form.ts';

const EMPTY: ThresholdTexts = { continuousFlowHours: '', nightFlowLitresPerHour: '', burstLitresPerHour: '', stuckMeterDays: '' };

describe('a threshold field', () => {
  it('follows the default when empty', () => {
    expect(parseThreshold('continuousFlowHours', '  ', 'en')).toBeNull();
    expect(parseThresholds(EMPTY, 'en')).toEqual({
      ok: true,
      values: { continuousFlowHours: null, nightFlowLitresPerHour: null, burstLitresPerHour: null, stuckMeterDays: null },
    });
  });

  it('keeps whole hours from 2 to 168 and whole days from 1 to 365, as the server does', () => {
    expect(['2', '168', ' 12 '].map((text) => parseThreshold('continuousFlowHours', text, 'en'))).toEqual([2, 168, 12]);
    for (const text of ['1', '169', '12.5', '-3', 'twelve', '1e2']) {
      expect(parseThreshold('continuousFlowHours', text, 'en')).toBeUndefined();
    }
    expect(['1', '365'].map((text) => parseThreshold('stuckMeterDays', text, 'en'))).toEqual([1, 365]);
    for (const text of ['0', '366', '7,5']) expect(parseThreshold('stuckMeterDays', text, 'fr')).toBeUndefined();
  });

  it('keeps litres an hour from 0.001 to 1000000, rounded to the millilitre as the server does', () => {
    expect(['0.001', '1000000', '2.5', '0.0005', '1,000'].map((text) => parseThreshold('burstLitresPerHour', text, 'en'))).toEqual([
      0.001, 1_000_000, 2.5, 0.0005, 1000,
    ]);
    for (const text of ['0', '0.0004', '1000000.001', '-1', '2,5', 'a lot']) {
      expect(parseThreshold('nightFlowLitresPerHour', text, 'en')).toBeUndefined();
    }
  });

  it('reads a French decimal comma and grouping spaces', () => {
    expect(parseThreshold('nightFlowLitresPerHour', '2,5', 'fr')).toBe(2.5);
    expect(parseThreshold('burstLitresPerHour', '1\u202f000', 'fr')).toBe(1000);
    expect(parseThreshold('burstLitresPerHour', '2.5', 'fr')).toBe(2.5);
  });

  it('names every field out of range', () => {
    expect(parseThresholds({ ...EMPTY, continuousFlowHours: '1', stuckMeterDays: '7', burstLitresPerHour: '0' }, 'en')).toEqual({
      ok: false,
      errors: { continuousFlowHours: true, burstLitresPerHour: true },
    });
  });

  it('shows a value without grouping, with the decimal mark of the language', () => {
    expect(thresholdText(null, 'en')).toBe('');
    expect(thresholdText(1_000_000, 'en')).toBe('1000000');
    expect(thresholdText(2.5, 'fr')).toBe('2,5');
    expect(thresholdTexts({ continuousFlowHours: 12, nightFlowLitresPerHour: 0.001, burstLitresPerHour: null, stuckMeterDays: null }, 'en')).toEqual({
      ...EMPTY,
      continuousFlowHours: '12',
      nightFlowLitresPerHour: '0.001',
    });
  });
});

describe("the server's refusal", () => {
  it('names the thresholds of a 400 validation_failed, and nothing else', () => {
    const refusal = (status: number, data: unknown) => ({ status, data });
    const fields = { continuousFlowHours: 'Must be a whole number of hours from 2 to 168', other: 'x' };
    expect(refusedThresholds(refusal(400, { code: 'validation_failed', message: 'm', fields }))).toEqual({ continuousFlowHours: true });
    expect(refusedThresholds(refusal(400, { code: 'validation_failed', message: 'm' }))).toBeNull();
    expect(refusedThresholds(refusal(400, { code: 'validation_failed', message: 'm', fields: { other: 'x' } }))).toBeNull();
    expect(refusedThresholds(refusal(403, { code: 'forbidden', message: 'm' }))).toBeNull();
    expect(refusedThresholds({ status: 'FETCH_ERROR', error: 'offline' })).toBeNull();
  });
});
