// Alarms as CSV (RFC 4180): one row per alarm, times in ISO 8601 UTC, names
// beside ids. A cell that a spreadsheet would run as a formula is quoted
// with a leading apostrophe.
import type { Actor, Alarm } from './alarm-types.ts';

const name = (actor: Actor | null) => actor?.name ?? '';

const COLUMNS: readonly [string, (alarm: Alarm) => string][] = [
  ['id', (a) => a.id],
  ['severity', (a) => a.severity],
  ['status', (a) => a.status],
  ['type', (a) => a.type],
  ['deviceKind', (a) => a.deviceKind],
  ['deviceName', (a) => a.deviceName],
  ['deviceId', (a) => a.deviceId],
  ['raisedAt', (a) => a.raisedAt],
  ['raisedBy', (a) => name(a.raisedBy)],
  ['assignee', (a) => name(a.assignee)],
  ['acknowledgedAt', (a) => a.acknowledgedAt ?? ''],
  ['acknowledgedBy', (a) => name(a.acknowledgedBy)],
  ['clearedAt', (a) => a.clearedAt ?? ''],
  ['clearedBy', (a) => name(a.clearedBy)],
  ['closedAt', (a) => a.closedAt ?? ''],
  ['closedBy', (a) => name(a.closedBy)],
  ['updatedAt', (a) => a.updatedAt],
];

function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function alarmsCsv(alarms: readonly Alarm[]): string {
  const lines = [COLUMNS.map(([header]) => header).join(',')];
  for (const alarm of alarms) lines.push(COLUMNS.map(([, value]) => cell(value(alarm))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
