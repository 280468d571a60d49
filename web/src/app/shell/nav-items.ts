// The navigation entries: the spec's nine (§2, Shell), in its order, with
// Alarms after Criticals and the Map after Alarms, and Alarm rules, Users,
// the Audit trail then API keys (admins) last.
// An entry that `needs` a permission is shown only to the roles that have it.
import { useCan, type Permission } from '../../lib/permissions.ts';

type NavKey =
  | 'nav.overview'
  | 'nav.gateways'
  | 'nav.lostGateways'
  | 'nav.waterMeters'
  | 'nav.lostWaterMeters'
  | 'nav.downWaterMeters'
  | 'nav.criticals'
  | 'nav.alarms'
  | 'nav.map'
  | 'nav.waterMeterRegistration'
  | 'nav.gatewayRegistration'
  | 'nav.alarmRules'
  | 'nav.users'
  | 'nav.audit'
  | 'nav.apiKeys';

export interface NavItem {
  to: string;
  key: NavKey;
  needs?: Permission;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', key: 'nav.overview' },
  { to: '/gateways', key: 'nav.gateways' },
  { to: '/lost-gateways', key: 'nav.lostGateways' },
  { to: '/water-meters', key: 'nav.waterMeters' },
  { to: '/lost-water-meters', key: 'nav.lostWaterMeters' },
  { to: '/down-water-meters', key: 'nav.downWaterMeters' },
  { to: '/criticals', key: 'nav.criticals' },
  { to: '/alarms', key: 'nav.alarms' },
  { to: '/map', key: 'nav.map' },
  { to: '/water-meter-registration', key: 'nav.waterMeterRegistration', needs: 'changeDevices' },
  { to: '/gateway-registration', key: 'nav.gatewayRegistration', needs: 'changeDevices' },
  { to: '/admin/rules', key: 'nav.alarmRules', needs: 'manageAlarmRules' },
  { to: '/admin/users', key: 'nav.users', needs: 'manageUsers' },
  { to: '/admin/audit', key: 'nav.audit', needs: 'readAudit' },
  { to: '/admin/api-keys', key: 'nav.apiKeys', needs: 'manageApiKeys' },
];

/** The entries the signed-in user may use. */
export function useNavItems(): readonly NavItem[] {
  const granted: Record<Permission, boolean> = {
    changeDevices: useCan('changeDevices'),
    manageUsers: useCan('manageUsers'),
    readAudit: useCan('readAudit'),
    manageApiKeys: useCan('manageApiKeys'),
    manageAlarmRules: useCan('manageAlarmRules'),
  };
  return NAV_ITEMS.filter((item) => item.needs === undefined || granted[item.needs]);
}
