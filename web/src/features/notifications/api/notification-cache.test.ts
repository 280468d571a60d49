import { describe, expect, it } from 'vitest';

import type { Notification } from '../../../lib/types.ts';
import { lastSeq, parseNotification, prepend, removeWhere, restore } from './notification-cache.ts';

const note = (seq: number, id = `n${String(seq)}`): Notification => ({
  seq,
  id,
  deviceName: `W-${String(seq)}`,
  event: 'leak alert',
  status: 'raised',
});

describe('notification cache helpers', () => {
  it('parses a notification and rejects anything else', () => {
    expect(parseNotification(JSON.stringify(note(1)))).toEqual(note(1));
    expect(parseNotification('not json')).toBeNull();
    expect(parseNotification('null')).toBeNull();
    expect(parseNotification('{"deviceName":"W-1","event":"leak"}')).toBeNull();
  });

  it('prepends a new notification and ignores one already listed by seq or id', () => {
    const list = [note(2), note(1)];
    prepend(list, note(3));
    prepend(list, note(2));
    prepend(list, { deviceName: 'W-9', event: 'e', status: 's', id: 'n1' });
    expect(list.map((n) => n.seq)).toEqual([3, 2, 1]);
  });

  it('resumes after the greatest seq, or 0 when none is listed', () => {
    expect(lastSeq([note(4), note(9), note(2)])).toBe(9);
    expect(lastSeq([])).toBe(0);
  });

  it('removes matching notifications in place and restores them in seq order, keeping newer arrivals', () => {
    const list = [note(4), note(3), note(2), note(1)];
    const removed = removeWhere(list, (n) => n.seq === 3 || n.seq === 1);
    expect(removed.map((n) => n.seq)).toEqual([3, 1]);
    expect(list.map((n) => n.seq)).toEqual([4, 2]);

    prepend(list, note(5));
    restore(list, removed);
    expect(list.map((n) => n.seq)).toEqual([5, 4, 3, 2, 1]);
  });
});
