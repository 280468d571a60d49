// Pure helpers on the cached list of notifications (newest first).
import type { Notification } from '../../../lib/types.ts';

const isText = (value: unknown): value is string => typeof value === 'string';

/** A stream message's data as a notification, or null when it is not one. */
export function parseNotification(data: string): Notification | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const n = value as Record<string, unknown>;
  return isText(n.deviceName) && isText(n.event) && isText(n.status) ? (value as Notification) : null;
}

function same(a: Notification, b: Notification): boolean {
  if (a.seq !== undefined && b.seq !== undefined) return a.seq === b.seq;
  return a.id !== undefined && a.id === b.id;
}

/** Puts a new notification on top; one already listed (same seq or id) is ignored. */
export function prepend(list: Notification[], n: Notification): void {
  if (!list.some((item) => same(item, n))) list.unshift(n);
}

/** The greatest seq listed, where a resumed stream starts; 0 when there is none. */
export function lastSeq(list: readonly Notification[]): number {
  return list.reduce((max, n) => Math.max(max, n.seq ?? 0), 0);
}

/** Removes the notifications that match, in place; copies of them, for a rollback. */
export function removeWhere(list: Notification[], matches: (n: Notification) => boolean): Notification[] {
  const removed: Notification[] = [];
  for (let i = list.length - 1; i >= 0; i -= 1) {
    const n = list[i];
    if (n && matches(n)) {
      removed.unshift({ ...n });
      list.splice(i, 1);
    }
  }
  return removed;
}

/**
 * Puts removed notifications back, newest (greatest seq) first, keeping any
 * that arrived in the meantime.
 */
export function restore(list: Notification[], removed: readonly Notification[]): void {
  for (const n of removed) if (!list.some((item) => same(item, n))) list.push(n);
  list.sort((a, b) => (b.seq ?? 0) - (a.seq ?? 0));
}
