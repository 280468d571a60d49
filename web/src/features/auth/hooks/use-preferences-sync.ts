// After sign-in, and at start-up with a session, the signed-in user's
// preferences kept on the server are applied here: the theme at once, the
// language by storing it and reloading once (language-sync.ts decides, and
// guards against a reload loop). A server without the user's language is
// given this browser's. Not while the password must be changed first: the
// server answers nothing else then.
import { useColorScheme } from '@mui/material/styles';
import { useEffect, useEffectEvent } from 'react';

import { useAppSelector } from '../../../lib/hooks.ts';
import { isLanguage, reloadPage, storedLanguage, storeLanguage } from '../../../lib/i18n.ts';
import { selectMustChangePassword, selectToken, selectUserId } from '../../../lib/session.ts';
import { isThemeChoice, type ThemeChoice } from '../../../lib/theme-choice.ts';
import { useMeQuery } from '../api/auth-api.ts';
import { languageStep, reloadedFor, unsavedSwitch } from '../api/language-sync.ts';
import { useSavePreferences } from './use-save-preferences.ts';

export function usePreferencesSync(reload: () => void = reloadPage): void {
  const token = useAppSelector(selectToken);
  const mustChange = useAppSelector(selectMustChangePassword);
  const active = token !== null && !mustChange;
  const userId = useAppSelector(selectUserId);
  const { data } = useMeQuery(undefined, { skip: !active });
  const preferences = active ? data?.preferences : undefined;
  const { setMode } = useColorScheme();
  const save = useSavePreferences();

  // Only when the server's theme changes: a choice made here since stays.
  const applyTheme = useEffectEvent((theme: ThemeChoice) => {
    setMode(theme);
  });
  const syncLanguage = useEffectEvent((server: unknown, theme: ThemeChoice | undefined) => {
    const local = storedLanguage();
    const step = languageStep({
      server: isLanguage(server) ? server : null,
      local,
      unsaved: unsavedSwitch.of(userId),
      reloadedFor: reloadedFor.read(),
    });
    if (step.kind === 'push') {
      void save({ language: step.language, ...(theme ? { theme } : {}) }).then((saved) => {
        if (saved) unsavedSwitch.clear();
      });
    } else if (step.kind === 'apply') {
      reloadedFor.mark(step.language);
      storeLanguage(step.language);
      reload();
    } else if (step.kind === 'settled') {
      reloadedFor.clear();
    } else {
      console.warn(`the page stays in ${local}: the language ${String(server)} could not be applied`);
    }
  });

  const known = preferences !== undefined;
  const language = preferences?.language;
  const theme = isThemeChoice(preferences?.theme) ? preferences.theme : undefined;
  useEffect(() => {
    if (theme) applyTheme(theme);
  }, [theme]);
  useEffect(() => {
    if (known) syncLanguage(language, theme);
  }, [known, language, theme]);
}
