// What each role may do (the server's `Role`, libs/wm-http auth/claims.rs):
// the dashboard offers only the actions the signed-in role may take. The
// server still refuses the others with 403; this only stops offering them.
// An unknown or missing role is treated as a viewer: it may only read.
import { selectRole } from './session.ts';
import { useAppSelector } from './hooks.ts';

/** The server's roles, from most to least trusted. */
export const ROLES = ['admin', 'operator', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The least trusted role: a new user's or API key's, until an admin raises it on purpose. */
export const DEFAULT_NEW_ROLE: Role = 'viewer';

export type Permission =
  /**
   * Register, edit and delete devices, answer shutdown requests, act on alarms and valve commands,
   * and issue, rotate and revoke a gateway's MQTT credentials.
   */
  | 'changeDevices'
  /** Create, disable and change users. */
  | 'manageUsers'
  /** Read the audit trail (the server asks the same as for users: an admin). */
  | 'readAudit'
  /** Create and revoke API keys (an admin). */
  | 'manageApiKeys'
  /** Create, change, test and delete alarm rules, and read their deliveries (an admin). */
  | 'manageAlarmRules';

const GRANTS: Record<string, readonly Permission[]> = {
  admin: ['changeDevices', 'manageUsers', 'readAudit', 'manageApiKeys', 'manageAlarmRules'],
  operator: ['changeDevices'],
  viewer: [],
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function may(role: string | null, permission: Permission): boolean {
  return role !== null && Object.hasOwn(GRANTS, role) && (GRANTS[role]?.includes(permission) ?? false);
}

/** Whether the signed-in user may do `permission`. */
export function useCan(permission: Permission): boolean {
  return may(useAppSelector(selectRole), permission);
}
