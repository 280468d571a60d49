// The English strings, one namespace per feature plus `common`: bundled with
// the app, the language every page starts in and falls back to (lib/i18n.ts).
// The keys are typed from them (i18next.d.ts).
import alarmRules from './en/alarm-rules.json';
import alarms from './en/alarms.json';
import apiKeys from './en/api-keys.json';
import audit from './en/audit.json';
import auth from './en/auth.json';
import common from './en/common.json';
import deviceImport from './en/device-import.json';
import gatewayCredentials from './en/gateway-credentials.json';
import gateways from './en/gateways.json';
import map from './en/map.json';
import meters from './en/meters.json';
import notifications from './en/notifications.json';
import overview from './en/overview.json';
import registration from './en/registration.json';
import search from './en/search.json';
import users from './en/users.json';

export const english = {
  common,
  auth,
  overview,
  gateways,
  meters,
  registration,
  search,
  notifications,
  alarms,
  map,
  users,
  audit,
  apiKeys,
  alarmRules,
  deviceImport,
  gatewayCredentials,
};

export type Strings = typeof english;
