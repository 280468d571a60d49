// The language kept on the server for the signed-in user, and the one kept
// in this browser (spec §1: localStorage, applied by a reload). On sign-in or
// at start-up with a session, the server's wins; when the server has none,
// or missed the user's last switch here (its save failed), this browser's is
// saved. A reload happens at most once per language per tab: when the page
// comes back still in the other language (the storage refused it), nothing
// more is tried, so the page cannot reload in a loop.
import type { Language } from '../../../lib/i18n.ts';

export type LanguageStep =
  /** Both agree: nothing to do. */
  | { kind: 'settled' }
  /** Save this browser's language on the server. */
  | { kind: 'push'; language: Language }
  /** Store the server's language here and reload. */
  | { kind: 'apply'; language: Language }
  /** A reload for the server's language already happened and did not take: stop. */
  | { kind: 'stuck' };

interface Situation {
  server: Language | null;
  local: Language;
  /** The user's last switch here was not saved on the server. */
  unsaved: boolean;
  /** The language this tab last reloaded for, if any. */
  reloadedFor: string | null;
}

export function languageStep({ server, local, unsaved, reloadedFor }: Situation): LanguageStep {
  if (server === null || unsaved) return { kind: 'push', language: local };
  if (server === local) return { kind: 'settled' };
  if (reloadedFor === server) return { kind: 'stuck' };
  return { kind: 'apply', language: server };
}

/** Which user's switch was not saved (localStorage: it outlives the reload). */
const UNSAVED_KEY = 'lngUnsavedFor';
/** The language this tab reloaded for (sessionStorage: one tab, across its reloads). */
const RELOADED_KEY = 'lngReloadedFor';

export const unsavedSwitch = {
  of: (userId: string | null) => userId !== null && localStorage.getItem(UNSAVED_KEY) === userId,
  mark: (userId: string | null) => {
    if (userId !== null) localStorage.setItem(UNSAVED_KEY, userId);
  },
  clear: () => {
    localStorage.removeItem(UNSAVED_KEY);
  },
};

export const reloadedFor = {
  read: () => sessionStorage.getItem(RELOADED_KEY),
  mark: (language: Language) => {
    sessionStorage.setItem(RELOADED_KEY, language);
  },
  clear: () => {
    sessionStorage.removeItem(RELOADED_KEY);
  },
};
