// The map's words in the user's language: a cluster's and a device's
// accessible names, a cluster's count, and the status line of the view.
import type { TFunction } from 'i18next';

import { MAP_ITEMS_MAX } from '../../../lib/constants.ts';
import { formatCount, pluralForm } from '../../../lib/format.ts';
import type { DeviceKind, Health, MapCluster, MapMarker, MapView } from './map-types.ts';

export interface MapFormat {
  t: TFunction<'map'>;
  language: string;
  /** An instant as the status line shows it: `14:05` today. */
  time: (iso: string) => string;
}

type Words = Pick<MapFormat, 't' | 'language'>;

/** The health as it qualifies a device of `kind` (French agrees in gender). */
export function healthWord(health: Health, kind: DeviceKind | 'device', t: Words['t']): string {
  return t(`state.${kind === 'gateway' ? 'gateway' : 'device'}.${health}`);
}

/** `Cluster of 3 devices, worst health critical`. */
export function clusterLabel(cluster: Pick<MapCluster, 'count' | 'health'>, { t, language }: Words): string {
  return t(`cluster.${pluralForm(cluster.count, language)}`, {
    n: formatCount(cluster.count, language),
    health: healthWord(cluster.health, 'device', t),
  });
}

/** `W-SM01000004, meter, healthy`. */
export function markerLabel(marker: Pick<MapMarker, 'name' | 'kind' | 'health'>, { t }: Words): string {
  return t('marker', {
    name: marker.name,
    kind: t(`kinds.${marker.kind}`),
    health: healthWord(marker.health, marker.kind, t),
  });
}

/** A cluster's count as drawn on it: `3`, `1.2K`, in French `1,2 k`. */
export function countText(count: number, language: string): string {
  return new Intl.NumberFormat(language, { notation: 'compact', maximumFractionDigits: 1 }).format(count);
}

/** The status line: how many devices are in view, as of when, and whether the view is cut. */
export function statusLine(view: Pick<MapView, 'total' | 'countedAt' | 'truncated'>, { t, language, time }: MapFormat): string[] {
  const parts = [t(`status.inView.${pluralForm(view.total, language)}`, { n: formatCount(view.total, language) })];
  if (view.countedAt) parts.push(t('status.countedAt', { time: time(view.countedAt) }));
  if (view.truncated) parts.push(t('status.truncated', { n: formatCount(MAP_ITEMS_MAX, language) }));
  return parts;
}

export interface SearchSummary {
  q: string;
  radius: number;
  /** Null while the search runs. */
  results: number | null;
  failed: boolean;
  places: readonly unknown[];
}

/** What the search the map was opened with found, and the radius drawn. */
export function searchLines(search: SearchSummary, { t, language }: Words): string[] {
  if (search.failed) return [t('search.failed')];
  if (search.results === null) return [];
  const lines = [t(`search.results.${pluralForm(search.results, language)}`, { n: formatCount(search.results, language), q: search.q })];
  if (search.places.length === 0) lines.push(t('search.noPosition'));
  else if (search.radius > 0) lines.push(t('search.radius', { radius: formatCount(search.radius, language) }));
  return lines;
}
