// Pure formatting helpers (STYLE.md item 10), each unit-tested.
import {
  BADGE_CAP,
  GATEWAY_PREFIX,
  GPS_DECIMALS,
  METER_PREFIX,
  RSSI_FAIR_ABOVE,
  RSSI_GOOD_ABOVE,
} from './constants.ts';
import { parseDeviceId, parseGps } from './validation.ts';

const pad = (n: number) => String(n).padStart(2, '0');

function sameDay(a: Date, b: Date) {
  return a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
}

export type Timestamp =
  | { kind: 'today' | 'yesterday'; time: string }
  | { kind: 'date'; text: string };

/**
 * `dd-mm-yy, hh:mm` in local time, or `today`/`yesterday` with `hh:mm`
 * (spec §2, Overview). Null when the value is missing or unreadable.
 */
export function formatTimestamp(value: string | null | undefined, now: Date = new Date()): Timestamp | null {
  if (!value) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  if (sameDay(date, now)) return { kind: 'today', time };
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (sameDay(date, yesterday)) return { kind: 'yesterday', time };
  const yy = pad(date.getFullYear() % 100);
  return { kind: 'date', text: `${pad(date.getDate())}-${pad(date.getMonth() + 1)}-${yy}, ${time}` };
}

/** The first `max` characters, with an ellipsis when something was cut. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text;
}

/** `"longitude, latitude"` with six decimals, or null when unparseable (spec §5). */
export function formatGps(value: string | readonly unknown[] | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const parsed = parseGps(value);
  if (!parsed.ok) return null;
  return parsed.value.map((n) => n.toFixed(GPS_DECIMALS)).join(', ');
}

export type RssiColour = 'success' | 'warning' | 'error';

/** Green above -60, orange above -80, otherwise red (spec §9). */
export function rssiColour(rssi: number): RssiColour {
  if (rssi > RSSI_GOOD_ABOVE) return 'success';
  if (rssi > RSSI_FAIR_ABOVE) return 'warning';
  return 'error';
}

export function splitUptime(totalSeconds: number) {
  const s = Math.max(0, Math.floor(totalSeconds));
  return { hours: Math.floor(s / 3600), minutes: Math.floor((s % 3600) / 60), seconds: s % 60 };
}

/** The badge text: the count, capped at `99+` (spec §2). */
export function badgeText(count: number): string {
  return count > BADGE_CAP ? `${String(BADGE_CAP)}+` : String(count);
}

/** The record's id: plain or `{$oid}` (spec §3). */
export function idOf(id: string | { $oid: string }): string {
  return typeof id === 'string' ? id : id.$oid;
}

interface Named {
  deviceName?: string | null;
  serialNumber?: string | null;
}

const named = (prefix: string) => (device: Named) =>
  device.deviceName?.trim() ? device.deviceName : `${prefix}${device.serialNumber ?? ''}`;

/** The device name, or `GTW-`/`W-` plus the serial number when it is empty. */
export const gatewayName = named(GATEWAY_PREFIX);
export const meterName = named(METER_PREFIX);

export type DeviceLookup = { by: 'id'; id: string } | { by: 'serial'; serial: string };

/**
 * A detail route's parameter: a 24-hex id, or a serial number with or without
 * its display prefix (spec §2).
 */
export function deviceLookup(param: string, prefix: string): DeviceLookup {
  const id = parseDeviceId(param);
  if (id.ok) return { by: 'id', id: id.value };
  const serial = param.toUpperCase().startsWith(prefix.toUpperCase()) ? param.slice(prefix.length) : param;
  return { by: 'serial', serial };
}

/** Up to this many litres a volume is shown in L, above it in m³. */
export const LITRES_SHOWN_UP_TO = 10_000;

/**
 * A volume given in litres, with its unit, in the user's language: `9,999 L`,
 * `10,000 L`, `12.346 m³` (at most three decimals). Not a number reads as given.
 */
export function formatVolume(litres: number | null | undefined, language: string): string {
  if (typeof litres !== 'number' || !Number.isFinite(litres)) return String(litres ?? '');
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 3 });
  return Math.abs(litres) > LITRES_SHOWN_UP_TO ? `${number.format(litres / 1000)} m³` : `${number.format(litres)} L`;
}

/**
 * The form of the noun after a whole count: `one` (1 day; in French 0 and 1)
 * or `other` (7 days). English and French word every other category (French
 * `many`, 1 000 000) as `other`.
 */
export function pluralForm(count: number, language: string): 'one' | 'other' {
  return new Intl.PluralRules(language).select(count) === 'one' ? 'one' : 'other';
}

/** A count with the language's separators: `1,000`, in French `1 000`. */
export function formatCount(count: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 3 }).format(count);
}
