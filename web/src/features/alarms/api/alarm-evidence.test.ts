import { beforeAll, describe, expect, it } from 'vitest';

import { formatTimestamp } from '../../../lib/format.ts';
import { initI18n, loadLanguage } from '../../../lib/i18n.ts';
import { describeEvidence, parseEvidence } from './alarm-evidence.ts';

/** An instant at a local hour of November 2026, as the API writes it. */
const at = (day: number, hour: number) => new Date(2026, 10, day, hour).toISOString();
const NOW = new Date(2026, 11, 1, 12);
/** `dd-mm-yy, hh:mm`: every evidence here is older than yesterday. */
const time = (iso: string) => {
  const ts = formatTimestamp(iso, NOW);
  return ts?.kind === 'date' ? ts.text : '';
};
/** Intl writes French thousands with a narrow no-break space. */
const spaced = (text: string) => text.replace(/[\u202f\u00a0]/gu, ' ');

const EVIDENCE = {
  'continuous-flow': { detector: 'continuous-flow', from: at(21, 23), to: at(22, 23), hours: 24, volumeMl: 144_000, minHourlyMl: 6_000, thresholdHours: 24 },
  burst: { detector: 'burst', from: at(22, 3), to: at(22, 4), volumeMl: 1_500_000, thresholdMl: 1_000_000 },
  'night-flow': { detector: 'night-flow', from: at(22, 2), to: at(22, 5), minHourlyMl: 6_000, thresholdMl: 5_000 },
  'stuck-meter': { detector: 'stuck-meter', from: at(15, 0), to: at(22, 0), days: 7, readings: 28, thresholdDays: 7 },
} as const;

function words(evidence: Record<string, unknown>, language: 'en' | 'fr') {
  const parsed = parseEvidence(evidence);
  if (!parsed) throw new Error('not evidence');
  return spaced(describeEvidence(parsed, { t: initI18n().getFixedT(language, 'alarms'), language, time }));
}

beforeAll(async () => {
  await loadLanguage('fr');
});

describe('the evidence of a leak detector', () => {
  it('reads each detector from the details, and nothing else', () => {
    expect(parseEvidence(EVIDENCE.burst)).toEqual(EVIDENCE.burst);
    expect(parseEvidence({ ...EVIDENCE.burst, extra: 'kept out' })).toEqual(EVIDENCE.burst);
    expect(parseEvidence({ gateway: 'SG01000003' })).toBeNull();
    expect(parseEvidence({ ...EVIDENCE.burst, detector: 'leak' })).toBeNull();
    expect(parseEvidence({ ...EVIDENCE.burst, volumeMl: '1500000' })).toBeNull();
    expect(parseEvidence({ ...EVIDENCE['stuck-meter'], readings: undefined })).toBeNull();
    expect(parseEvidence({ ...EVIDENCE['night-flow'], to: 'tomorrow' })).toBeNull();
  });

  it('words each detector in English', () => {
    expect(words(EVIDENCE['continuous-flow'], 'en')).toBe(
      'Flow in every hour from 21-11-26, 23:00 to 22-11-26, 23:00 (24 hours): 144 L, at least 6 L an hour; threshold 24 hours',
    );
    expect(words(EVIDENCE.burst, 'en')).toBe('1,500 L in the hour from 22-11-26, 03:00 to 22-11-26, 04:00; threshold 1,000 L');
    expect(words(EVIDENCE['night-flow'], 'en')).toBe(
      'Lowest hour of the night, from 22-11-26, 02:00 to 22-11-26, 05:00: 6 L; threshold 5 L',
    );
    expect(words(EVIDENCE['stuck-meter'], 'en')).toBe(
      'No consumption for 7 days from 15-11-26, 00:00 to 22-11-26, 00:00, 28 readings heard; threshold 7 days',
    );
  });

  it('words each detector in French', () => {
    expect(words(EVIDENCE['continuous-flow'], 'fr')).toBe(
      'Débit à chaque heure entre 21-11-26, 23:00 et 22-11-26, 23:00 (24 heures) : 144 L, au moins 6 L par heure ; seuil 24 heures',
    );
    expect(words(EVIDENCE.burst, 'fr')).toBe('1 500 L en une heure, entre 22-11-26, 03:00 et 22-11-26, 04:00 ; seuil 1 000 L');
    expect(words(EVIDENCE['night-flow'], 'fr')).toBe(
      'Consommation horaire minimale de la nuit, entre 22-11-26, 02:00 et 22-11-26, 05:00 : 6 L ; seuil 5 L',
    );
    expect(words(EVIDENCE['stuck-meter'], 'fr')).toBe(
      'Aucune consommation pendant 7 jours entre 15-11-26, 00:00 et 22-11-26, 00:00, 28 relevés reçus ; seuil 7 jours',
    );
  });

  it('says one day and one reading in the singular, and large volumes in m³', () => {
    const single = { ...EVIDENCE['stuck-meter'], from: at(21, 0), days: 1, readings: 1, thresholdDays: 1 };
    expect(words(single, 'en')).toBe('No consumption for 1 day from 21-11-26, 00:00 to 22-11-26, 00:00, 1 reading heard; threshold 1 day');
    expect(words(single, 'fr')).toBe(
      'Aucune consommation pendant 1 jour entre 21-11-26, 00:00 et 22-11-26, 00:00, 1 relevé reçu ; seuil 1 jour',
    );
    const large = { ...EVIDENCE.burst, volumeMl: 15_250_000, thresholdMl: 12_000_000 };
    expect(words(large, 'en')).toBe('15.25 m³ in the hour from 22-11-26, 03:00 to 22-11-26, 04:00; threshold 12 m³');
    expect(words(large, 'fr')).toBe('15,25 m³ en une heure, entre 22-11-26, 03:00 et 22-11-26, 04:00 ; seuil 12 m³');
  });
});
