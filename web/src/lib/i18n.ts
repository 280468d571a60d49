// i18next with one namespace per feature plus `common` (STYLE.md, Medusa).
// The language is kept in localStorage; switching it reloads the page (spec §1).
// The signed-in user's choice is also kept on the server (features/auth,
// use-language-switch.ts and use-preferences-sync.ts).
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

import enAlarmRules from '../locales/en/alarm-rules.json';
import enAlarms from '../locales/en/alarms.json';
import enApiKeys from '../locales/en/api-keys.json';
import enAudit from '../locales/en/audit.json';
import enAuth from '../locales/en/auth.json';
import enCommon from '../locales/en/common.json';
import enDeviceImport from '../locales/en/device-import.json';
import enGatewayCredentials from '../locales/en/gateway-credentials.json';
import enGateways from '../locales/en/gateways.json';
import enMap from '../locales/en/map.json';
import enMeters from '../locales/en/meters.json';
import enNotifications from '../locales/en/notifications.json';
import enOverview from '../locales/en/overview.json';
import enRegistration from '../locales/en/registration.json';
import enSearch from '../locales/en/search.json';
import enUsers from '../locales/en/users.json';
import frAlarmRules from '../locales/fr/alarm-rules.json';
import frAlarms from '../locales/fr/alarms.json';
import frApiKeys from '../locales/fr/api-keys.json';
import frAudit from '../locales/fr/audit.json';
import frAuth from '../locales/fr/auth.json';
import frCommon from '../locales/fr/common.json';
import frDeviceImport from '../locales/fr/device-import.json';
import frGatewayCredentials from '../locales/fr/gateway-credentials.json';
import frGateways from '../locales/fr/gateways.json';
import frMap from '../locales/fr/map.json';
import frMeters from '../locales/fr/meters.json';
import frNotifications from '../locales/fr/notifications.json';
import frOverview from '../locales/fr/overview.json';
import frRegistration from '../locales/fr/registration.json';
import frSearch from '../locales/fr/search.json';
import frUsers from '../locales/fr/users.json';

export const resources = {
  en: {
    common: enCommon,
    auth: enAuth,
    overview: enOverview,
    gateways: enGateways,
    meters: enMeters,
    registration: enRegistration,
    search: enSearch,
    notifications: enNotifications,
    alarms: enAlarms,
    map: enMap,
    users: enUsers,
    audit: enAudit,
    apiKeys: enApiKeys,
    alarmRules: enAlarmRules,
    deviceImport: enDeviceImport,
    gatewayCredentials: enGatewayCredentials,
  },
  fr: {
    common: frCommon,
    auth: frAuth,
    overview: frOverview,
    gateways: frGateways,
    meters: frMeters,
    registration: frRegistration,
    search: frSearch,
    notifications: frNotifications,
    alarms: frAlarms,
    map: frMap,
    users: frUsers,
    audit: frAudit,
    apiKeys: frApiKeys,
    alarmRules: frAlarmRules,
    deviceImport: frDeviceImport,
    gatewayCredentials: frGatewayCredentials,
  },
} as const;

export type Language = keyof typeof resources;
export const LANGUAGES: readonly Language[] = ['en', 'fr'];
const LANGUAGE_KEY = 'lng';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function storedLanguage(storage: Storage = localStorage): Language {
  const stored = storage.getItem(LANGUAGE_KEY);
  return stored === 'fr' ? 'fr' : 'en';
}

/** Kept for the next page load, which is in it (spec §1). */
export function storeLanguage(language: Language, storage: Storage = localStorage) {
  storage.setItem(LANGUAGE_KEY, language);
}

export const otherLanguage = (language: Language): Language => (language === 'en' ? 'fr' : 'en');

/** A reload of the page: how a stored language takes effect (spec §1). */
export function reloadPage() {
  window.location.reload();
}

export function initI18n(language: Language = storedLanguage()) {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources,
      lng: language,
      fallbackLng: 'en',
      defaultNS: 'common',
      ns: Object.keys(resources.en),
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    document.documentElement.lang = language;
  }
  return i18n;
}
