// Alarms shaped like the API's answers (docs/alarms.md), for the alarm tests.
import { METER_ID } from '../../../testing/records.ts';
import type { Alarm, AlarmDetail, HistoryEntry } from '../api/alarm-types.ts';

export const ALARM_ID = 'a1a1a1a1a1a1a1a1a1a1a1a1';
const GATEWAY = { id: `gateway:SG01000003`, name: 'GTW-SG01000003' };
export const OPERATOR = { id: 'u-operator', name: 'olivia' };

export function alarm(overrides: Partial<Alarm> = {}): Alarm {
  return {
    id: ALARM_ID,
    deviceId: METER_ID,
    deviceKind: 'meter',
    deviceName: 'W-SM00000001',
    type: 'leak',
    severity: 'critical',
    status: 'active',
    details: { gateway: 'SG01000003' },
    raisedAt: '2026-11-22T16:29:22.291038Z',
    raisedBy: GATEWAY,
    assignee: null,
    acknowledgedAt: null,
    acknowledgedBy: null,
    clearedAt: null,
    clearedBy: null,
    closedAt: null,
    closedBy: null,
    updatedAt: '2026-11-22T16:29:22.291038Z',
    ...overrides,
  };
}

/** `n` alarms with distinct ids, raised one second apart (newest first). */
export function alarms(n: number, from = 0): Alarm[] {
  return Array.from({ length: n }, (_, i) =>
    alarm({
      id: (from + i).toString(16).padStart(24, 'a'),
      raisedAt: new Date(Date.UTC(2026, 10, 22, 16, 0, 59 - ((from + i) % 60))).toISOString(),
    }),
  );
}

export function detail(record: Alarm = alarm(), history: HistoryEntry[] = []): AlarmDetail {
  return {
    ...record,
    history: [
      { id: 'e1', action: 'raised', actor: record.raisedBy, note: '', assignee: null, at: record.raisedAt },
      ...history,
    ],
  };
}
