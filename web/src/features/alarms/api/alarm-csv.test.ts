import { describe, expect, it } from 'vitest';

import { alarm } from '../testing/alarm-fixtures.ts';
import { alarmsCsv } from './alarm-csv.ts';

describe('alarms as CSV', () => {
  it('has a header and one row per alarm, with names beside ids', () => {
    const [header, row, end] = alarmsCsv([alarm({ assignee: { id: 'u1', name: 'olivia' } })]).split('\r\n');
    expect(header).toBe(
      'id,severity,status,type,deviceKind,deviceName,deviceId,raisedAt,raisedBy,assignee,acknowledgedAt,acknowledgedBy,clearedAt,clearedBy,closedAt,closedBy,updatedAt',
    );
    expect(row).toBe(
      'a1a1a1a1a1a1a1a1a1a1a1a1,critical,active,leak,meter,W-SM00000001,6b031854dbdeac91e41b633c,2026-11-22T16:29:22.291038Z,GTW-SG01000003,olivia,,,,,,,2026-11-22T16:29:22.291038Z',
    );
    expect(end).toBe('');
  });

  it('quotes commas, quotes and line breaks, and defuses formulas', () => {
    const csv = alarmsCsv([alarm({ deviceName: 'Main, "north"\nstreet', type: '=HYPERLINK("x")' })]);
    expect(csv).toContain('"Main, ""north""\nstreet"');
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
  });
});
