// The map's words (api/map-words.ts) bound to the user's language.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { useTimestamp } from '../../../components/use-timestamp.ts';
import { formatTimestamp } from '../../../lib/format.ts';
import {
  clusterLabel,
  countText,
  healthWord,
  markerLabel,
  searchLines,
  statusLine,
  type SearchSummary,
} from '../api/map-words.ts';
import type { DeviceKind, Health, MapCluster, MapMarker, MapView } from '../api/map-types.ts';

export function useMapWords() {
  const { t, i18n } = useTranslation('map');
  const language = i18n.resolvedLanguage ?? i18n.language;
  const timestamp = useTimestamp();
  return useMemo(() => {
    const words = { t, language };
    /** `14:05` today, otherwise as the dashboard shows other times. */
    const time = (iso: string) => {
      const ts = formatTimestamp(iso);
      return ts?.kind === 'today' ? ts.time : timestamp(iso);
    };
    return {
      t,
      health: (health: Health, kind: DeviceKind) => healthWord(health, kind, t),
      cluster: (cluster: Pick<MapCluster, 'count' | 'health'>) => clusterLabel(cluster, words),
      marker: (marker: Pick<MapMarker, 'name' | 'kind' | 'health'>) => markerLabel(marker, words),
      count: (count: number) => countText(count, language),
      status: (view: Pick<MapView, 'total' | 'countedAt' | 'truncated'>) => statusLine(view, { t, language, time }),
      search: (search: SearchSummary) => searchLines(search, words),
    };
  }, [t, language, timestamp]);
}

export type MapWords = ReturnType<typeof useMapWords>;
