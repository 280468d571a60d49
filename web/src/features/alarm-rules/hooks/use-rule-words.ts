// A rule's words in the user's language: an alarm type the dashboard does
// not know (a new one) is shown as typed.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import type { Severity } from '../api/rule-types.ts';

export function useRuleWords() {
  const { t } = useTranslation('alarmRules');
  return useMemo(
    () => ({
      type: (type: string) => t(`types.${type}`, { defaultValue: type }),
      severity: (severity: Severity) => t(`severities.${severity}`),
    }),
    [t],
  );
}
