// The evidence a leak detector puts in the `details` of the alarm it raises
// (docs/analytics.md, Leak detectors): which detector, the window and the
// figures against the threshold in force. Volumes come in millilitres.
import type { TFunction } from 'i18next';

import { formatCount, formatVolume, pluralForm } from '../../../lib/format.ts';

export const DETECTORS = ['continuous-flow', 'night-flow', 'burst', 'stuck-meter'] as const;
export type Detector = (typeof DETECTORS)[number];

interface Window {
  from: string;
  to: string;
}

export type Evidence = Window &
  (
    | { detector: 'continuous-flow'; hours: number; volumeMl: number; minHourlyMl: number; thresholdHours: number }
    | { detector: 'burst'; volumeMl: number; thresholdMl: number }
    | { detector: 'night-flow'; minHourlyMl: number; thresholdMl: number }
    | { detector: 'stuck-meter'; days: number; readings: number; thresholdDays: number }
  );

/** The figures each detector gives, all numbers. */
const FIGURES: Record<Detector, readonly string[]> = {
  'continuous-flow': ['hours', 'volumeMl', 'minHourlyMl', 'thresholdHours'],
  burst: ['volumeMl', 'thresholdMl'],
  'night-flow': ['minHourlyMl', 'thresholdMl'],
  'stuck-meter': ['days', 'readings', 'thresholdDays'],
};

const isDetector = (value: unknown): value is Detector => DETECTORS.includes(value as Detector);
const isTime = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value));

/** A detector's evidence, or null when the details are something else (a gateway's alarm). */
export function parseEvidence(details: Record<string, unknown>): Evidence | null {
  const { detector, from, to } = details;
  if (!isDetector(detector) || !isTime(from) || !isTime(to)) return null;
  const figures: Record<string, number> = {};
  for (const key of FIGURES[detector]) {
    const value = details[key];
    if (typeof value !== 'number' || !Number.isFinite(value)) return null;
    figures[key] = value;
  }
  return { detector, from, to, ...figures } as Evidence;
}

export interface EvidenceFormat {
  t: TFunction<'alarms'>;
  language: string;
  /** An instant as the dashboard shows times (`useTimestamp`). */
  time: (iso: string) => string;
}

/** The evidence as a sentence in the user's language. */
export function describeEvidence(evidence: Evidence, { t, language, time }: EvidenceFormat): string {
  const volume = (ml: number) => formatVolume(ml / 1000, language);
  const count = (unit: 'hours' | 'days' | 'readings', n: number) =>
    t(`evidence.units.${unit}.${pluralForm(n, language)}`, { n: formatCount(n, language) });
  const window = { from: time(evidence.from), to: time(evidence.to) };
  switch (evidence.detector) {
    case 'continuous-flow':
      return t('evidence.continuous-flow', {
        ...window,
        hours: count('hours', evidence.hours),
        volume: volume(evidence.volumeMl),
        minHourly: volume(evidence.minHourlyMl),
        threshold: count('hours', evidence.thresholdHours),
      });
    case 'burst':
      return t('evidence.burst', { ...window, volume: volume(evidence.volumeMl), threshold: volume(evidence.thresholdMl) });
    case 'night-flow':
      return t('evidence.night-flow', {
        ...window,
        minHourly: volume(evidence.minHourlyMl),
        threshold: volume(evidence.thresholdMl),
      });
    case 'stuck-meter':
      return t('evidence.stuck-meter', {
        ...window,
        days: count('days', evidence.days),
        readings: count('readings', evidence.readings),
        threshold: count('days', evidence.thresholdDays),
      });
  }
}
