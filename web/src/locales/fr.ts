// The French strings, in the namespaces of en.ts: a chunk of their own, loaded
// only when French is chosen (lib/i18n.ts `applyLanguage`).
import alarmRules from './fr/alarm-rules.json';
import alarms from './fr/alarms.json';
import apiKeys from './fr/api-keys.json';
import audit from './fr/audit.json';
import auth from './fr/auth.json';
import common from './fr/common.json';
import deviceImport from './fr/device-import.json';
import gatewayCredentials from './fr/gateway-credentials.json';
import gateways from './fr/gateways.json';
import map from './fr/map.json';
import meters from './fr/meters.json';
import notifications from './fr/notifications.json';
import overview from './fr/overview.json';
import registration from './fr/registration.json';
import search from './fr/search.json';
import users from './fr/users.json';
import type { Strings } from './en.ts';

export const french: Strings = {
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
