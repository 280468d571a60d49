// Saves the signed-in user's preferences on the server: the language and the
// theme in use here, with `change` applied. True once the server stored them;
// a failure is logged and left to the caller.
import { useColorScheme } from '@mui/material/styles';
import { useCallback } from 'react';

import { isCancelled } from '../../../lib/api.ts';
import { storedLanguage } from '../../../lib/i18n.ts';
import { useSavePreferencesMutation, type Preferences } from '../api/auth-api.ts';

export function useSavePreferences(): (change: Partial<Preferences>) => Promise<boolean> {
  const [save] = useSavePreferencesMutation();
  const { mode } = useColorScheme();
  return useCallback(
    async (change) => {
      try {
        await save({ language: storedLanguage(), theme: mode ?? 'system', ...change }).unwrap();
        return true;
      } catch (error) {
        if (!isCancelled(error)) console.warn('the preferences could not be saved', error);
        return false;
      }
    },
    [save, mode],
  );
}
