import { describe, expect, it } from 'vitest';

import { networkRefresher, parseHint, tagsFor, type Hint } from './hints.ts';

const METER = '65f0c0ffee00000000000001';
const GATEWAY = '65f0c0ffee00000000000002';

describe('change hints', () => {
  it('reads a hint and drops what it does not know', () => {
    const data = JSON.stringify({
      devices: [{ id: METER, kind: 'meter', changes: ['reading', 'teleport'] }, { id: GATEWAY, kind: 'robot', changes: [] }],
      changes: ['reading', 'teleport'],
      complete: true,
    });
    expect(parseHint(data)).toEqual({
      devices: [{ id: METER, kind: 'meter', changes: ['reading'] }, { id: GATEWAY, kind: null, changes: [] }],
      changes: ['reading'],
      complete: true,
    });
    for (const bad of ['', 'null', '[]', '{"devices": [], "changes": []}', '{"devices": [{}], "changes": [], "complete": true}']) {
      expect(parseHint(bad)).toBeNull();
    }
  });

  it('refetches what shows each device that changed, each tag once', () => {
    const tags = tagsFor({
      devices: [
        { id: METER, kind: 'meter', changes: ['reading', 'alert', 'valve'] },
        { id: GATEWAY, kind: 'gateway', changes: ['activity', 'status'] },
      ],
      changes: ['reading', 'alert', 'valve', 'activity', 'status'],
      complete: true,
    });
    expect(tags).toEqual([
      { type: 'Meter', id: METER },
      { type: 'Consumption', id: METER },
      { type: 'Critical', id: METER },
      'Count',
      { type: 'ValveCommand', id: METER },
      { type: 'Gateway', id: GATEWAY },
      { type: 'Activity', id: GATEWAY },
    ]);
  });

  it('refetches alarms on any alarm change, and both kinds when the device kind is unknown', () => {
    const tags = tagsFor({ devices: [{ id: METER, kind: null, changes: ['alarm', 'registry'] }], changes: ['alarm', 'registry'], complete: true });
    expect(tags).toEqual(['Alarm', 'AlarmCounts', { type: 'Gateway', id: METER }, { type: 'Meter', id: METER }, 'Count']);
  });

  it('refetches per-device data by kind of change, never whole lists, when the hint could not name every device', () => {
    const tags = tagsFor({ devices: [], changes: ['reading', 'activity', 'alert'], complete: false });
    expect(tags).toEqual(['Consumption', 'Critical', 'Count']);
  });

  it("refetches only a meter's thresholds when they were set, and every meter's when the hint could not name it", () => {
    const hint = parseHint(JSON.stringify({ devices: [{ id: METER, kind: 'meter', changes: ['thresholds'] }], changes: ['thresholds'], complete: true }));
    expect(hint?.devices[0]?.changes).toEqual(['thresholds']);
    expect(tagsFor({ devices: [{ id: METER, kind: 'meter', changes: ['thresholds'] }], changes: ['thresholds'], complete: true })).toEqual([
      { type: 'Thresholds', id: METER },
    ]);
    expect(tagsFor({ devices: [], changes: ['thresholds'], complete: false })).toEqual(['Thresholds']);
  });
});

describe("the network's refresh", () => {
  const reading: Hint = { devices: [{ id: METER, kind: 'meter', changes: ['reading'] }], changes: ['reading'], complete: true };

  it('follows readings at most once a minute', () => {
    const network = networkRefresher(60_000);
    expect(network(reading, 1_000)).toEqual(['Network']);
    expect(network(reading, 30_000)).toEqual([]);
    expect(network(reading, 60_999)).toEqual([]);
    expect(network(reading, 61_000)).toEqual(['Network']);
  });

  it('ignores hints without a reading, even incomplete ones', () => {
    const network = networkRefresher(60_000);
    expect(network({ devices: [{ id: GATEWAY, kind: 'gateway', changes: ['activity'] }], changes: ['activity'], complete: false }, 0)).toEqual([]);
    expect(network({ devices: [], changes: ['reading'], complete: false }, 0)).toEqual(['Network']);
  });
});
