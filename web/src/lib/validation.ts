// The client-side twin of `wm-domain`'s validated types (spec §5). Both are
// asserted against libs/wm-domain/tests/vectors/validation.json.
// A failure names a message key under `validation.` in the common namespace.
import {
  DEVICE_ID_LENGTH,
  GPS_DECIMALS,
  IMEI_LENGTH,
  MAX_USERNAME_CHARS,
  PHONE_LENGTH,
  SERIAL_LENGTH,
} from './constants.ts';

export type ValidationMessage =
  | 'serialNumber'
  | 'meterSerialNumber'
  | 'imei'
  | 'phoneNumber'
  | 'editPhoneNumber'
  | 'address'
  | 'meterBleAddress'
  | 'gpsCoordinates'
  | 'deviceId';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: ValidationMessage };

export type Gps = [longitude: number, latitude: number];

const ALNUM = new RegExp(`^[A-Za-z0-9]{${String(SERIAL_LENGTH)}}$`);
const IMEI = new RegExp(`^[0-9]{${String(IMEI_LENGTH)}}$`);
const PHONE = new RegExp(`^[0-9]{${String(PHONE_LENGTH)}}$`);
const ADDRESS = /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/;
const HEX_ID = new RegExp(`^[0-9A-Fa-f]{${String(DEVICE_ID_LENGTH)}}$`);
const GPS_NUMBER = /^[ \t]*(-?[0-9]+(?:\.[0-9]+)?)[ \t]*$/;

function matching(pattern: RegExp, message: ValidationMessage, canonical: (s: string) => string) {
  return (input: string): Parsed<string> =>
    pattern.test(input) ? { ok: true, value: canonical(input) } : { ok: false, message };
}

const upper = (s: string) => s.toUpperCase();
const same = (s: string) => s;

export const parseSerialNumber = matching(ALNUM, 'serialNumber', upper);
export const parseMeterSerialNumber = matching(ALNUM, 'meterSerialNumber', upper);
export const parseImei = matching(IMEI, 'imei', same);
export const parsePhoneNumber = matching(PHONE, 'phoneNumber', same);
export const parseEditPhoneNumber = matching(PHONE, 'editPhoneNumber', same);
export const parseAddress = matching(ADDRESS, 'address', upper);
export const parseMeterBleAddress = matching(ADDRESS, 'meterBleAddress', upper);

/** Round half away from zero to six decimals; `-0` becomes `0`. */
export function roundGps(value: number): number {
  const scale = 10 ** GPS_DECIMALS;
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * scale)) / scale;
  return rounded === 0 ? 0 : rounded;
}

function inRange([longitude, latitude]: Gps): boolean {
  return Math.abs(longitude) <= 180 && Math.abs(latitude) <= 90;
}

/** `"lon,lat"` as typed, or `[lon, lat]` as the API sends it (spec §3). */
export function parseGps(input: string | readonly unknown[]): Parsed<Gps> {
  const invalid = { ok: false, message: 'gpsCoordinates' } as const;
  let numbers: readonly number[];
  if (typeof input === 'string') {
    const parts = input.split(',');
    const matched = parts.map((part) => GPS_NUMBER.exec(part)?.[1]);
    if (matched.some((m) => m === undefined)) return invalid;
    numbers = matched.map(Number);
  } else {
    const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
    if (!input.every(finite)) return invalid;
    numbers = input;
  }
  const [longitude, latitude] = numbers;
  if (numbers.length !== 2 || longitude === undefined || latitude === undefined) return invalid;
  const gps: Gps = [longitude, latitude];
  if (!inRange(gps)) return invalid;
  return { ok: true, value: [roundGps(longitude), roundGps(latitude)] };
}

/** A 24-hex id, plain or as `{"$oid": ...}`; canonical form is lower case. */
export function parseDeviceId(input: unknown): Parsed<string> {
  const raw = typeof input === 'object' && input !== null && '$oid' in input ? input.$oid : input;
  if (typeof raw === 'string' && HEX_ID.test(raw)) return { ok: true, value: raw.toLowerCase() };
  return { ok: false, message: 'deviceId' };
}

/** A text's length as the server counts it (Rust's `chars()`: code points, not UTF-16 units). */
export function charCount(text: string): number {
  return Array.from(text).length;
}

/** The server's username rule (after trimming): 1 to MAX_USERNAME_CHARS characters, no control character. */
export function isValidUsername(username: string): boolean {
  const length = charCount(username);
  return length > 0 && length <= MAX_USERNAME_CHARS && !/\p{Cc}/u.test(username);
}
