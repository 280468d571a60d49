// The shared vectors (libs/wm-domain/tests/vectors/validation.json) hold for
// the TypeScript rules too, messages included: the two sides provably agree.
import { describe, expect, it } from 'vitest';

import vectors from '../../../libs/wm-domain/tests/vectors/validation.json';
import { formatGps } from './format.ts';
import { initI18n } from './i18n.ts';
import {
  charCount,
  isValidUsername,
  parseAddress,
  parseDeviceId,
  parseEditPhoneNumber,
  parseGps,
  parseImei,
  parseMeterBleAddress,
  parseMeterSerialNumber,
  parsePhoneNumber,
  parseSerialNumber,
  type Parsed,
} from './validation.ts';

interface Case {
  input: unknown;
  valid: boolean;
  canonical?: unknown;
  message?: string;
  display?: string;
}

const i18n = initI18n();

const stringRules: Record<string, (input: string) => Parsed<string>> = {
  serialNumber: parseSerialNumber,
  meterSerialNumber: parseMeterSerialNumber,
  imei: parseImei,
  phoneNumber: parsePhoneNumber,
  editPhoneNumber: parseEditPhoneNumber,
  bleAddress: parseAddress,
  meterBleAddress: parseMeterBleAddress,
  macAddress: parseAddress,
};

function check(rule: string, c: Case, parsed: Parsed<unknown>) {
  if (c.valid) {
    expect(parsed, `${rule} accepts ${JSON.stringify(c.input)}`).toEqual({ ok: true, value: c.canonical });
  } else {
    expect(parsed.ok, `${rule} refuses ${JSON.stringify(c.input)}`).toBe(false);
    if (!parsed.ok) expect(i18n.t(`validation.${parsed.message}`)).toBe(c.message);
  }
}

describe('validation vectors shared with wm-domain', () => {
  const table = vectors as Record<string, Case[]>;

  it('covers every rule of the table', () => {
    expect(Object.keys(table).sort()).toEqual([...Object.keys(stringRules), 'gpsCoordinates', 'deviceId'].sort());
  });

  for (const [rule, parse] of Object.entries(stringRules)) {
    it(`${rule} agrees with every vector`, () => {
      for (const c of table[rule] ?? []) check(rule, c, parse(c.input as string));
    });
  }

  it('gpsCoordinates agrees with every vector, display included', () => {
    for (const c of table.gpsCoordinates ?? []) {
      const parsed = parseGps(c.input as string | unknown[]);
      check('gpsCoordinates', c, parsed);
      if (c.display !== undefined) expect(formatGps(c.input as string | number[])).toBe(c.display);
    }
  });

  it('deviceId agrees with every vector', () => {
    for (const c of table.deviceId ?? []) check('deviceId', c, parseDeviceId(c.input));
  });
});

describe('the account rules (docs/administration.md)', () => {
  it('counts characters as the server does, and holds usernames to 1 to 64 of them with no control character', () => {
    expect(charCount('né🙂')).toBe(3);
    expect(['ann', 'é'.repeat(64), 'Ann O’Neil'].map(isValidUsername)).toEqual([true, true, true]);
    expect(['', 'x'.repeat(65), 'tab\there', 'bell\u0007'].map(isValidUsername)).toEqual([false, false, false, false]);
  });
});
