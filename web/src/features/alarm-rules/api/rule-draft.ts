// A rule as its dialog edits it, the RuleInput it sends, and the fields the
// dialog checks first with the server's rules. A field is named as the
// server names it in a 400's `fields`, so both kinds of error land under
// the same field.
import {
  GROUP_WINDOW_DEFAULT_SECS,
  GROUP_WINDOW_SECS,
  RULE_NAME_MAX_CHARS,
  RULE_RECIPIENTS,
  WEBHOOK_SECRET_CHARS,
} from '../../../lib/constants.ts';
import { charCount, parseDeviceId } from '../../../lib/validation.ts';
import type { ChannelKind, DeviceScope, Devices, Rule, RuleInput, Severity } from './rule-types.ts';

export const RULE_FIELDS = [
  'name',
  'match.types',
  'match.severities',
  'match.devices',
  'channel.to',
  'channel.url',
  'channel.secret',
  'groupWindowSecs',
] as const;
export type RuleField = (typeof RULE_FIELDS)[number];

export interface RuleDraft {
  name: string;
  enabled: boolean;
  types: string[];
  severities: Severity[];
  scope: DeviceScope;
  deviceIds: string[];
  gatewayId: string;
  kind: ChannelKind;
  to: string[];
  url: string;
  /** A new secret; empty keeps the stored one. */
  secret: string;
  /** The rule being edited has a webhook secret stored. */
  secretSet: boolean;
  /** Seconds, as typed. */
  groupWindow: string;
}

/** The draft of `rule`, or of a new rule: enabled, matching any alarm, by email. */
export function draftOf(rule: Rule | null): RuleDraft {
  const devices = rule?.match.devices ?? { scope: 'all' };
  const channel = rule?.channel ?? { kind: 'email', to: [] };
  return {
    name: rule?.name ?? '',
    enabled: rule?.enabled ?? true,
    types: rule?.match.types ?? [],
    severities: rule?.match.severities ?? [],
    scope: devices.scope,
    deviceIds: devices.scope === 'list' ? devices.ids : [],
    gatewayId: devices.scope === 'gateway' ? devices.gatewayId : '',
    kind: channel.kind,
    to: channel.kind === 'email' ? channel.to : [],
    url: channel.kind === 'webhook' ? channel.url : '',
    secret: '',
    secretSet: channel.kind === 'webhook' && channel.secretSet,
    groupWindow: String(rule?.groupWindowSecs ?? GROUP_WINDOW_DEFAULT_SECS),
  };
}

function devicesOf(draft: RuleDraft): Devices {
  switch (draft.scope) {
    case 'all':
      return { scope: 'all' };
    case 'list':
      return { scope: 'list', ids: draft.deviceIds.map((id) => id.toLowerCase()) };
    case 'gateway':
      return { scope: 'gateway', gatewayId: draft.gatewayId.trim().toLowerCase() };
  }
}

/** What the dialog sends: a webhook's secret only when a new one was given. */
export function inputOf(draft: RuleDraft): RuleInput {
  return {
    name: draft.name.trim(),
    enabled: draft.enabled,
    match: { types: draft.types, severities: draft.severities, devices: devicesOf(draft) },
    channel:
      draft.kind === 'email'
        ? { kind: 'email', to: draft.to }
        : { kind: 'webhook', url: draft.url.trim(), ...(draft.secret === '' ? {} : { secret: draft.secret }) },
    groupWindowSecs: Number(draft.groupWindow.trim()),
  };
}

/** `rule` as it stands, to send back with one change (the stored secret kept). */
export function inputOfRule({ name, enabled, match, channel, groupWindowSecs }: Rule): RuleInput {
  return {
    name,
    enabled,
    match,
    channel: channel.kind === 'email' ? { kind: 'email', to: channel.to } : { kind: 'webhook', url: channel.url },
    groupWindowSecs,
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const WHOLE = /^\d+$/;

const isDeviceId = (id: string) => parseDeviceId(id.trim()).ok;

function isHttpUrl(text: string): boolean {
  try {
    const { protocol, host } = new URL(text);
    return (protocol === 'http:' || protocol === 'https:') && host !== '';
  } catch {
    return false;
  }
}

const within = (value: number, { min, max }: { min: number; max: number }) => value >= min && value <= max;

function devicesBroken(draft: RuleDraft): boolean {
  if (draft.scope === 'list') return draft.deviceIds.length === 0 || !draft.deviceIds.every(isDeviceId);
  return draft.scope === 'gateway' && !isDeviceId(draft.gatewayId);
}

function channelBroken(draft: RuleDraft): RuleField[] {
  if (draft.kind === 'email') {
    return within(draft.to.length, RULE_RECIPIENTS) && draft.to.every((to) => EMAIL.test(to)) ? [] : ['channel.to'];
  }
  const secretBroken = draft.secret === '' ? !draft.secretSet : !within(charCount(draft.secret), WEBHOOK_SECRET_CHARS);
  return [...(isHttpUrl(draft.url.trim()) ? [] : ['channel.url' as const]), ...(secretBroken ? ['channel.secret' as const] : [])];
}

/** The fields that break the server's rules, as far as the dialog can tell. */
export function brokenFields(draft: RuleDraft): RuleField[] {
  const name = draft.name.trim();
  const window = draft.groupWindow.trim();
  return [
    ...(name === '' || charCount(name) > RULE_NAME_MAX_CHARS ? ['name' as const] : []),
    ...(devicesBroken(draft) ? ['match.devices' as const] : []),
    ...channelBroken(draft),
    ...(WHOLE.test(window) && within(Number(window), GROUP_WINDOW_SECS) ? [] : ['groupWindowSecs' as const]),
  ];
}
