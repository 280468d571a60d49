// The theme in use and its change: applied at once (and kept in this
// browser), then saved for the signed-in user; a failed save is told, and
// the choice stays on this device.
import { useColorScheme } from '@mui/material/styles';
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import type { ThemeChoice } from '../../../lib/theme-choice.ts';
import { useSavePreferences } from './use-save-preferences.ts';

export function useThemeChoice() {
  const { t } = useTranslation();
  const notify = useNotice();
  const { mode, setMode } = useColorScheme();
  const save = useSavePreferences();
  const choice: ThemeChoice = mode ?? 'system';
  const choose = async (theme: ThemeChoice) => {
    if (theme === choice) return;
    setMode(theme);
    if (!(await save({ theme }))) notify(t('theme.saveFailed'), 'error');
  };
  return { choice, choose };
}
