// Alarm rules and their deliveries as `/api/admin/rules` shows them: a rule
// sends the alarms it matches by email or to a webhook, grouping those that
// come within its window after the first into one message.

export const SEVERITIES = ['critical', 'major', 'minor', 'warning'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Offered in the alarm types field; any other type may be typed in. */
export const ALARM_TYPE_SUGGESTIONS = [
  'leak',
  'burst',
  'tamper',
  'low-battery',
  'continuous-flow',
  'night-flow',
  'stuck-meter',
  'valve-timeout',
] as const;

export type Devices =
  | { scope: 'all' }
  /** Device ids, 24 hex characters each. */
  | { scope: 'list'; ids: string[] }
  /** The gateway and its meters. */
  | { scope: 'gateway'; gatewayId: string };

export type DeviceScope = Devices['scope'];

export interface RuleMatch {
  /** Alarm types, e.g. `leak`; empty matches any. */
  types: string[];
  /** Empty matches any. */
  severities: Severity[];
  devices: Devices;
}

export type Channel = { kind: 'email'; to: string[] } | { kind: 'webhook'; url: string; secretSet: boolean };

export type ChannelKind = Channel['kind'];

export interface Rule {
  id: string;
  name: string;
  enabled: boolean;
  match: RuleMatch;
  channel: Channel;
  groupWindowSecs: number;
  /** RFC 3339, as are the other times. */
  createdAt: string;
  updatedAt: string;
}

/** A webhook's secret is write-only: left out (or null) on a change, the stored one is kept. */
export type ChannelInput = { kind: 'email'; to: string[] } | { kind: 'webhook'; url: string; secret?: string | null };

export interface RuleInput {
  name: string;
  enabled: boolean;
  match: RuleMatch;
  channel: ChannelInput;
  groupWindowSecs: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'abandoned';

export interface Attempt {
  at: string;
  outcome: 'ok' | 'failed';
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export interface Delivery {
  id: string;
  ruleId: string;
  createdAt: string;
  status: DeliveryStatus;
  /** Sent by Send test rather than by alarms. */
  test: boolean;
  alarmCount: number;
  attempts: Attempt[];
  /** Why it was abandoned. */
  reason: string | null;
  nextAttemptAt: string | null;
}
