// The language switch (spec §1): the other language is stored here and the
// page reloads in it. Before the reload it is saved for the signed-in user;
// when that fails, the switch is marked unsaved, so that after the reload it
// is saved again rather than undone by the server's older choice.
import { useCallback } from 'react';

import { useAppSelector } from '../../../lib/hooks.ts';
import { otherLanguage, reloadPage, storedLanguage, storeLanguage } from '../../../lib/i18n.ts';
import { selectUserId } from '../../../lib/session.ts';
import { unsavedSwitch } from '../api/language-sync.ts';
import { useSavePreferences } from './use-save-preferences.ts';

export function useLanguageSwitch(reload: () => void = reloadPage): () => Promise<void> {
  const save = useSavePreferences();
  const userId = useAppSelector(selectUserId);
  return useCallback(async () => {
    const language = otherLanguage(storedLanguage());
    storeLanguage(language);
    if (await save({ language })) unsavedSwitch.clear();
    else unsavedSwitch.mark(userId);
    reload();
  }, [save, userId, reload]);
}
