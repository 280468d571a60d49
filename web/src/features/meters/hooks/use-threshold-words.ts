// A threshold with its unit in the user's language: `24 hours`,
// `5 L an hour`, `7 days`.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import { formatCount, formatVolume, pluralForm } from '../../../lib/format.ts';
import type { ThresholdName } from '../api/thresholds-api.ts';
import { UNIT_OF } from './threshold-form.ts';

export function useThresholdWords(): (name: ThresholdName, value: number) => string {
  const { t, i18n } = useTranslation('meters');
  const language = i18n.resolvedLanguage ?? i18n.language;
  return useCallback(
    (name, value) => {
      const unit = UNIT_OF[name];
      if (unit === 'litresPerHour') return t('thresholds.units.litresPerHour', { volume: formatVolume(value, language) });
      return t(`thresholds.units.${unit}.${pluralForm(value, language)}`, { n: formatCount(value, language) });
    },
    [t, language],
  );
}
