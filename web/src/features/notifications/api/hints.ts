// Change hints on the notification stream (DESIGN §11, Live pages; the
// server coalesces them every 500 ms): each names the devices that changed
// and how. The cache refetches what shows them, so an open page reflects a
// change without a reload and without polling.
import type { TagDescription } from '@reduxjs/toolkit/query';

import type { TagType } from '../../../lib/api.ts';

type Tag = TagDescription<TagType>;

export type Change =
  | 'registry'
  | 'status'
  | 'activity'
  | 'ble'
  | 'reading'
  | 'alert'
  | 'discovery'
  | 'shutdown'
  | 'valve'
  | 'alarm'
  | 'thresholds';

export interface DeviceHint {
  id: string;
  kind: 'meter' | 'gateway' | null;
  changes: Change[];
}

export interface Hint {
  devices: DeviceHint[];
  changes: Change[];
  /** False when more devices changed than the hint names. */
  complete: boolean;
}

const CHANGES: readonly Change[] = [
  'registry', 'status', 'activity', 'ble', 'reading', 'alert', 'discovery', 'shutdown', 'valve', 'alarm', 'thresholds',
];
const isChange = (value: unknown): value is Change => CHANGES.includes(value as Change);

/** The hint an event's data holds, or null when it holds none. */
export function parseHint(data: string): Hint | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { devices, changes, complete } = value as Record<string, unknown>;
  if (!Array.isArray(devices) || !Array.isArray(changes) || typeof complete !== 'boolean') return null;
  const parsed: DeviceHint[] = [];
  for (const device of devices as unknown[]) {
    const d = device as Record<string, unknown> | null;
    if (typeof d?.id !== 'string' || !Array.isArray(d.changes)) return null;
    const kind = d.kind === 'meter' || d.kind === 'gateway' ? d.kind : null;
    parsed.push({ id: d.id, kind, changes: d.changes.filter(isChange) });
  }
  return { devices: parsed, changes: changes.filter(isChange), complete };
}

/** What a device's change shows in: the tags to refetch. */
function deviceTags(device: DeviceHint, change: Change): Tag[] {
  const { id } = device;
  const self: Tag[] =
    device.kind === 'gateway' ? [{ type: 'Gateway', id }]
    : device.kind === 'meter' ? [{ type: 'Meter', id }]
    : [{ type: 'Gateway', id }, { type: 'Meter', id }];
  switch (change) {
    case 'registry':
    case 'status':
      return [...self, 'Count'];
    case 'activity':
    case 'ble':
    case 'discovery':
      // Not the overview's list: the spec refreshes it on its own timer.
      return [...self, { type: 'Activity', id }];
    case 'reading':
      return [...self, { type: 'Consumption', id }];
    case 'alert':
      return [...self, { type: 'Critical', id }, 'Count'];
    case 'shutdown':
      return [...self, { type: 'Shutdown', id }, 'Count'];
    case 'valve':
      return [...self, { type: 'ValveCommand', id }];
    case 'alarm':
      return ['Alarm', 'AlarmCounts'];
    case 'thresholds':
      // Only the meter's leak-detection section shows them, not its record.
      return [{ type: 'Thresholds', id }];
  }
}

/**
 * What any device's change of this kind shows in, for an incomplete hint
 * (more devices changed than it names, under heavy traffic): only the
 * per-device data a page shows, never whole device lists, which a busy
 * network would otherwise refetch twice a second. Activity has none: the
 * overview refreshes on its own timer.
 */
function kindTags(change: Change): Tag[] {
  switch (change) {
    case 'registry':
    case 'status':
      return ['Count'];
    case 'activity':
    case 'ble':
    case 'discovery':
      return [];
    case 'reading':
      return ['Consumption'];
    case 'alert':
      return ['Critical', 'Count'];
    case 'shutdown':
      return ['Shutdown', 'Count'];
    case 'valve':
      return ['ValveCommand'];
    case 'alarm':
      return ['Alarm', 'AlarmCounts'];
    case 'thresholds':
      return ['Thresholds'];
  }
}

const key = (tag: Tag) => (typeof tag === 'string' ? tag : `${tag.type}/${String(tag.id)}`);

/** The tags a hint invalidates, each once. */
export function tagsFor(hint: Hint): Tag[] {
  const tags = new Map<string, Tag>();
  const add = (list: Tag[]) => { for (const tag of list) tags.set(key(tag), tag); };
  for (const device of hint.devices) for (const change of device.changes) add(deviceTags(device, change));
  if (!hint.complete) for (const change of hint.changes) add(kindTags(change));
  return [...tags.values()];
}

/** The network's sums (its series, the top consumers) refetch at most this often. */
export const NETWORK_REFRESH_MS = 60_000;

/**
 * Readings change the network's sums as well, which every meter's reading
 * would refetch twice a second on a busy network: the refresher gives the
 * `Network` tag for a hint with a reading at most once every `every` ms.
 * One per stream.
 */
export function networkRefresher(every = NETWORK_REFRESH_MS) {
  let last = Number.NEGATIVE_INFINITY;
  return (hint: Hint, now: number): Tag[] => {
    const read = hint.changes.includes('reading') || hint.devices.some((device) => device.changes.includes('reading'));
    if (!read || now - last < every) return [];
    last = now;
    return ['Network'];
  };
}
