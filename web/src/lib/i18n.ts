// i18next with one namespace per feature plus `common` (STYLE.md, Medusa).
// The language is kept in localStorage; switching it reloads the page (spec §1).
// The signed-in user's choice is also kept on the server (features/auth,
// use-language-switch.ts and use-preferences-sync.ts).
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

import { english } from '../locales/en.ts';

export type Language = 'en' | 'fr';
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

/** i18next in English, the bundled language; `applyLanguage` then shows the chosen one. */
export function initI18n() {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: { en: english },
      lng: 'en',
      fallbackLng: 'en',
      defaultNS: 'common',
      ns: Object.keys(english),
      interpolation: { escapeValue: false },
      initAsync: false,
    });
  }
  return i18n;
}

/** Adds the strings of `language` to i18next: French is a chunk of its own, loaded the first time. */
export async function loadLanguage(language: Language) {
  if (language === 'fr' && !i18n.hasResourceBundle('fr', 'common')) {
    const { french } = await import('../locales/fr.ts');
    for (const [namespace, bundle] of Object.entries(french)) i18n.addResourceBundle('fr', namespace, bundle);
  }
}

/**
 * Shows the app in `language` once its strings are in. The first render
 * waits for this (main.tsx), so a page in French never shows keys, nor
 * English, while its strings load.
 */
export async function applyLanguage(language: Language) {
  await loadLanguage(language);
  await i18n.changeLanguage(language);
  document.documentElement.lang = language;
}
