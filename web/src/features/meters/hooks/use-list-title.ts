// A list's title with its total, e.g. 'Lost Water Meters (3)'; without the
// total while it loads or when it failed.
import { useTranslation } from 'react-i18next';

import type { MeterListKind } from '../api/meter-tags.ts';

export function useListTitle(kind: MeterListKind, total: number | undefined): string {
  const { t } = useTranslation('meters');
  return total === undefined ? t(`lists.${kind}Plain`) : t(`lists.${kind}`, { total });
}
