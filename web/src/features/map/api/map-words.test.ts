import { beforeAll, describe, expect, it } from 'vitest';

import { initI18n, loadLanguage } from '../../../lib/i18n.ts';
import { clusterLabel, countText, markerLabel, searchLines, statusLine } from './map-words.ts';

const words = (language: 'en' | 'fr') => ({ t: initI18n().getFixedT(language, 'map'), language });
const time = () => '14:05';
/** Intl writes French thousands with a narrow no-break space. */
const spaced = (texts: string[]) => texts.map((text) => text.replace(/[\u202f\u00a0]/gu, ' '));

beforeAll(async () => {
  await loadLanguage('fr');
});

describe('the names of markers', () => {
  it('name a cluster by its count and worst health', () => {
    expect(clusterLabel({ count: 3, health: 'critical' }, words('en'))).toBe('Cluster of 3 devices, worst health critical');
    expect(clusterLabel({ count: 1200, health: 'lost' }, words('en'))).toBe('Cluster of 1,200 devices, worst health lost');
    expect(clusterLabel({ count: 3, health: 'down' }, words('fr'))).toBe('Groupe de 3 appareils, état le plus grave : coupé');
  });

  it('name a device by its name, kind and health, agreeing in French', () => {
    expect(markerLabel({ name: 'W-SM01000004', kind: 'meter', health: 'healthy' }, words('en'))).toBe('W-SM01000004, meter, healthy');
    expect(markerLabel({ name: 'GTW-SG01000003', kind: 'gateway', health: 'lost' }, words('en'))).toBe('GTW-SG01000003, gateway, lost');
    expect(markerLabel({ name: 'W-SM01000004', kind: 'meter', health: 'down' }, words('fr'))).toBe('W-SM01000004, compteur, coupé');
    expect(markerLabel({ name: 'GTW-SG01000003', kind: 'gateway', health: 'lost' }, words('fr'))).toBe('GTW-SG01000003, passerelle, perdue');
  });

  it('draw a large count short', () => {
    expect(countText(3, 'en')).toBe('3');
    expect(countText(1_250, 'en')).toBe('1.3K');
    expect(countText(100_000, 'en')).toBe('100K');
  });
});

describe('the status line', () => {
  const view = { total: 68, countedAt: null, truncated: false };

  it('counts the devices in view', () => {
    expect(statusLine(view, { ...words('en'), time })).toEqual(['68 devices in view']);
    expect(statusLine({ ...view, total: 1 }, { ...words('en'), time })).toEqual(['1 device in view']);
    expect(statusLine({ ...view, total: 0 }, { ...words('fr'), time })).toEqual(['0 appareil affiché']);
    expect(spaced(statusLine({ ...view, total: 12_345 }, { ...words('fr'), time }))).toEqual(['12 345 appareils affichés']);
  });

  it('says when the counts were made and when the view is cut', () => {
    const full = { total: 100_000, countedAt: '2026-11-24T13:05:00Z', truncated: true };
    expect(statusLine(full, { ...words('en'), time })).toEqual(['100,000 devices in view', 'Counts from 14:05', 'Showing the first 2,000']);
    expect(spaced(statusLine(full, { ...words('fr'), time }))).toEqual([
      '100 000 appareils affichés',
      'Décompte de 14:05',
      'Seuls les 2 000 premiers sont affichés',
    ]);
  });
});

describe('what the search found', () => {
  const search = { q: 'SM01', radius: 150, results: 3, failed: false, places: [{}, {}] };

  it('counts the results and gives the radius drawn', () => {
    expect(searchLines(search, words('en'))).toEqual(['3 results for “SM01”', 'Search radius: 150 m']);
    expect(searchLines({ ...search, radius: 0 }, words('en'))).toEqual(['3 results for “SM01”']);
    expect(searchLines({ ...search, results: 1 }, words('fr'))).toEqual(['1 résultat pour « SM01 »', 'Rayon de recherche : 150 m']);
  });

  it('says when no result has a position, when the search failed, and nothing while it runs', () => {
    expect(searchLines({ ...search, places: [] }, words('en'))).toEqual(['3 results for “SM01”', 'No search result has a position.']);
    expect(searchLines({ ...search, failed: true }, words('en'))).toEqual(['The search could not be run.']);
    expect(searchLines({ ...search, results: null }, words('en'))).toEqual([]);
  });
});
