// An alarm's status, severity and type in the user's language; a word the
// dashboard does not know (a new type) is shown as the server sends it.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

export function useAlarmWords() {
  const { t } = useTranslation('alarms');
  const status = useCallback((value: string) => t(`statuses.${value}`, { defaultValue: value }), [t]);
  const severity = useCallback((value: string) => t(`severities.${value}`, { defaultValue: value }), [t]);
  const type = useCallback((value: string) => t(`types.${value}`, { defaultValue: value }), [t]);
  return { status, severity, type };
}
