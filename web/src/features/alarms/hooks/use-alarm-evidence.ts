// A derived alarm's evidence worded in the user's language, with the
// dashboard's times and volumes; null for an alarm a detector did not raise.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import { useTimestamp } from '../../../components/use-timestamp.ts';
import { describeEvidence, parseEvidence } from '../api/alarm-evidence.ts';
import type { Alarm } from '../api/alarm-types.ts';

export function useAlarmEvidence(): (alarm: Pick<Alarm, 'details'>) => string | null {
  const { t, i18n } = useTranslation('alarms');
  const timestamp = useTimestamp();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useCallback(
    (alarm) => {
      const evidence = parseEvidence(alarm.details);
      return evidence ? describeEvidence(evidence, { t, language, time: (iso) => timestamp(iso) }) : null;
    },
    [t, language, timestamp],
  );
}
