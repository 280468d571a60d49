// The audit screen's view in its URL, so that a link reproduces it: the
// filter, the page (from 1) and its size. Text is kept trimmed, the times as
// the ISO 8601 instants the server is sent. A time edited by hand is sent as
// it is: the server's 400 then shows under its field.
import type { DeviceKind } from '../../../components/device-link.tsx';
import { AUDIT_DEFAULT_PAGE_SIZE, AUDIT_PAGE_SIZES, DEVICE_ID_LENGTH } from '../../../lib/constants.ts';

export interface AuditFilter {
  /** An actor's id, or a user's name in any case. */
  actor: string;
  /** An action (`meter.edit`), or its first part (`meter`). */
  action: string;
  /** A target's id. */
  target: string;
  /** `ok`, `refused` (any refusal) or a refusal's code; empty for any. */
  outcome: string;
  /** From this instant, included (ISO 8601); empty for no bound. */
  from: string;
  /** Until this instant, excluded (ISO 8601); empty for no bound. */
  to: string;
}

export interface AuditView extends AuditFilter {
  /** From 1. */
  page: number;
  /** Entries per page, one of AUDIT_PAGE_SIZES. */
  max: number;
}

export const NO_FILTER: AuditFilter = { actor: '', action: '', target: '', outcome: '', from: '', to: '' };
const FILTER_KEYS = Object.keys(NO_FILTER) as (keyof AuditFilter)[];

/**
 * The actions the services record (their sources: `Attempt`s and the
 * account changes), for the action filter's suggestions.
 */
export const AUDIT_ACTIONS: readonly string[] = [
  'gateway.register',
  'gateway.edit',
  'gateway.delete',
  'meter.register',
  'meter.edit',
  'meter.delete',
  'meter.thresholds',
  'shutdown.confirm',
  'shutdown.reject',
  'shutdown.answer',
  'alarm.acknowledge',
  'alarm.assign',
  'alarm.clear',
  'alarm.close',
  'alarm.comment',
  'valve.resend',
  'user.create',
  'user.role',
  'user.disable',
  'user.enable',
  'user.password_reset',
  'user.password_change',
  'user.revoke_sessions',
];

/** Their first parts (`meter` matches every `meter.*`), then the actions themselves. */
export const ACTION_SUGGESTIONS: readonly string[] = [
  ...new Set(AUDIT_ACTIONS.map((action) => action.split('.')[0] ?? action)),
  ...AUDIT_ACTIONS,
];

const OUTCOME = /^[a-z][a-z0-9_]{0,63}$/;
const WHOLE = /^\d{1,15}$/;
const DEVICE_ID = new RegExp(`^[0-9a-fA-F]{${String(DEVICE_ID_LENGTH)}}$`);

function text(params: URLSearchParams, name: string): string {
  return params.get(name)?.trim() ?? '';
}

export function readView(params: URLSearchParams): AuditView {
  const outcome = text(params, 'outcome');
  const page = text(params, 'page');
  const max = Number(text(params, 'max'));
  return {
    actor: text(params, 'actor'),
    action: text(params, 'action'),
    target: text(params, 'target'),
    outcome: OUTCOME.test(outcome) ? outcome : '',
    from: text(params, 'from'),
    to: text(params, 'to'),
    page: WHOLE.test(page) && Number(page) >= 1 ? Number(page) : 1,
    max: (AUDIT_PAGE_SIZES as readonly number[]).includes(max) ? max : AUDIT_DEFAULT_PAGE_SIZE,
  };
}

/** `view` written into `params`, which keeps its other entries; defaults are left out. */
export function writeView(view: AuditView, params: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (name: string, value: string) => {
    if (value) next.set(name, value);
    else next.delete(name);
  };
  for (const key of FILTER_KEYS) set(key, view[key].trim());
  set('page', view.page > 1 ? String(view.page) : '');
  set('max', view.max === AUDIT_DEFAULT_PAGE_SIZE ? '' : String(view.max));
  return next;
}

/** The filter as the API's query parameters (the export's too): only those set. */
export function filterParams(filter: AuditFilter): Record<string, string> {
  return Object.fromEntries(FILTER_KEYS.map((key) => [key, filter[key].trim()] as const).filter(([, value]) => value !== ''));
}

/** The page's query parameters: the filter, `page` and `max`. */
export function apiParams(view: AuditView): Record<string, string> {
  return { ...filterParams(view), page: String(view.page), max: String(view.max) };
}

export function isFiltered(filter: AuditFilter): boolean {
  return FILTER_KEYS.some((key) => filter[key] !== '');
}

/** The device an entry's target is, when its action is a device's and the target a device id. */
export function deviceTarget(action: string, target: string): DeviceKind | null {
  if (!DEVICE_ID.test(target)) return null;
  if (action.startsWith('gateway.')) return 'gateway';
  if (action.startsWith('meter.')) return 'meter';
  return null;
}
