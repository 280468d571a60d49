// The Alarms screen's view in its URL, so that a view can be shared: the
// filter, the order and the open alarm. A hand-edited value the API would
// refuse is dropped, never sent.
import { ALARM_STATUSES, SEVERITIES, type AlarmStatus, type Severity } from './alarm-types.ts';

export type SortKey = 'raisedAt' | 'severity';
export type Order = 'asc' | 'desc';

export interface AlarmFilter {
  status: AlarmStatus[];
  severity: Severity[];
  type: string[];
  /** A device's 24-hex id. */
  device: string | null;
  /** A user id, or `none`: nobody's. */
  assignee: string | null;
  /** Raised on or after this day (YYYY-MM-DD). */
  from: string | null;
  /** Raised on or before this day (YYYY-MM-DD). */
  to: string | null;
}

export interface AlarmView extends AlarmFilter {
  sort: SortKey;
  order: Order;
}

export const NO_FILTER: AlarmFilter = {
  status: [],
  severity: [],
  type: [],
  device: null,
  assignee: null,
  from: null,
  to: null,
};

const DEVICE_ID = /^[0-9a-fA-F]{24}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const ALARM_TYPE = /^[A-Za-z0-9_.-]{1,64}$/;

function list<T extends string>(value: string | null, allowed: readonly T[]): T[] {
  const words = (value ?? '').split(',').map((w) => w.trim());
  return allowed.filter((word) => words.includes(word));
}

function day(value: string | null): string | null {
  return value && DAY.test(value) && !Number.isNaN(Date.parse(value)) ? value : null;
}

export function readView(params: URLSearchParams): AlarmView {
  const types = (params.get('type') ?? '').split(',').map((w) => w.trim()).filter((w) => ALARM_TYPE.test(w));
  const device = params.get('device');
  const assignee = params.get('assignee')?.trim() ?? '';
  return {
    status: list(params.get('status'), ALARM_STATUSES),
    severity: list(params.get('severity'), SEVERITIES),
    type: [...new Set(types)],
    device: device && DEVICE_ID.test(device) ? device.toLowerCase() : null,
    assignee: assignee ? assignee : null,
    from: day(params.get('from')),
    to: day(params.get('to')),
    sort: params.get('sort') === 'severity' ? 'severity' : 'raisedAt',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
  };
}

/** `view` written into `params`, which keeps its other entries (the open alarm). */
export function writeView(view: AlarmView, params: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (name: string, value: string | null) => {
    if (value) next.set(name, value);
    else next.delete(name);
  };
  set('status', view.status.join(','));
  set('severity', view.severity.join(','));
  set('type', view.type.join(','));
  set('device', view.device);
  set('assignee', view.assignee);
  set('from', view.from);
  set('to', view.to);
  set('sort', view.sort === 'raisedAt' ? null : view.sort);
  set('order', view.order === 'desc' ? null : view.order);
  return next;
}

/** The day after `day` (YYYY-MM-DD), in UTC. */
function nextDay(value: string): string {
  const date = new Date(`${value}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * The API's query parameters for `view`. Days are the user's local days;
 * `to` includes its whole day.
 */
export function apiParams(view: AlarmView): Record<string, string> {
  const params: Record<string, string> = { sort: view.sort, order: view.order };
  const local = (value: string) => new Date(`${value}T00:00:00`).toISOString();
  if (view.status.length) params.status = view.status.join(',');
  if (view.severity.length) params.severity = view.severity.join(',');
  if (view.type.length) params.type = view.type.join(',');
  if (view.device) params.device = view.device;
  if (view.assignee) params.assignee = view.assignee;
  if (view.from) params.from = local(view.from);
  if (view.to) params.to = local(nextDay(view.to));
  return params;
}

/** Whether any filter is set (the order is not a filter). */
export function isFiltered(view: AlarmFilter): boolean {
  return (Object.keys(NO_FILTER) as (keyof AlarmFilter)[]).some((key) => {
    const value = view[key];
    return Array.isArray(value) ? value.length > 0 : value !== null;
  });
}
