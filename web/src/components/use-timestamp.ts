// Timestamps as the spec shows them: 'today at hh:mm', 'yesterday at hh:mm'
// or 'dd-mm-yy, hh:mm' (spec §2).
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import { formatTimestamp } from '../lib/format.ts';

/** `(value, fallback?)` → text; a missing value gives the fallback ('Never' by default). */
export function useTimestamp() {
  const { t } = useTranslation();
  return useCallback(
    (value: string | null | undefined, fallback: string = t('fallback.never')) => {
      const ts = formatTimestamp(value);
      if (!ts) return fallback;
      if (ts.kind === 'date') return ts.text;
      return t(ts.kind === 'today' ? 'time.today' : 'time.yesterday', { time: ts.time });
    },
    [t],
  );
}
