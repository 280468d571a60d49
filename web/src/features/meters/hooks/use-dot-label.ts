// The spoken label of a meter's status dot (spec §2): red critical, green Up.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import type { DotColour } from '../../../components/status-dot.tsx';

export function useDotLabel() {
  const { t } = useTranslation();
  return useCallback(
    (colour: DotColour) => {
      if (colour === 'red') return t('status.critical');
      return colour === 'green' ? t('status.up') : t('status.inactive');
    },
    [t],
  );
}
