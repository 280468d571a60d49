// Alarms as the API shows them (docs/alarms.md; /api/docs, tag "alarms").

export const ALARM_STATUSES = ['active', 'acknowledged', 'cleared', 'closed'] as const;
export type AlarmStatus = (typeof ALARM_STATUSES)[number];

export const SEVERITIES = ['critical', 'major', 'minor', 'warning'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Someone who did something: a user, a gateway or w-meter itself. */
export interface Actor {
  id: string;
  name: string;
}

export interface Alarm {
  id: string;
  deviceId: string;
  /** `meter` or `gateway`. */
  deviceKind: string;
  deviceName: string;
  type: string;
  /** A `Severity`. */
  severity: string;
  /** An `AlarmStatus`. */
  status: string;
  details: Record<string, unknown>;
  raisedAt: string;
  raisedBy: Actor;
  assignee: Actor | null;
  acknowledgedAt: string | null;
  acknowledgedBy: Actor | null;
  clearedAt: string | null;
  clearedBy: Actor | null;
  closedAt: string | null;
  closedBy: Actor | null;
  updatedAt: string;
}

export interface HistoryEntry {
  id: string;
  /** `raised`, `acknowledged`, `assigned`, `commented`, `cleared` or `closed`. */
  action: string;
  actor: Actor;
  note: string;
  assignee: Actor | null;
  at: string;
}

export type AlarmDetail = Alarm & { history: HistoryEntry[] };

export interface AlarmPage {
  items: Alarm[];
  next: string | null;
}

export type AlarmCounts = Record<AlarmStatus, number>;

export interface Assignable {
  userId: string;
  username: string;
  role: string;
}

export interface Acknowledged {
  acknowledged: string[];
  skipped: { id: string; code: string; message: string }[];
}
