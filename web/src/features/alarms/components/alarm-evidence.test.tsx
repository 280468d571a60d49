import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { formatTimestamp } from '../../../lib/format.ts';
import { applyLanguage } from '../../../lib/i18n.ts';
import { emptyExtraReads } from '../../../testing/extra-reads.ts';
import { server } from '../../../testing/msw-server.ts';
import { nth } from '../../../testing/nth.ts';
import { METER_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import type { Alarm } from '../api/alarm-types.ts';
import { alarm, ALARM_ID, detail } from '../testing/alarm-fixtures.ts';
import { AlarmPanel } from './alarm-panel.tsx';
import { DeviceAlarms } from './device-alarms.tsx';

/** Long ago, so that the dashboard shows the date: `dd-mm-yy, hh:mm`. */
const at = (day: number, hour: number) => new Date(2025, 10, day, hour).toISOString();
const shown = (iso: string) => {
  const ts = formatTimestamp(iso);
  return ts?.kind === 'date' ? ts.text : iso;
};
const W_METER = { id: 'service:telemetry-ingest', name: 'w-meter' };

const burst = alarm({
  type: 'burst',
  raisedAt: at(22, 4),
  raisedBy: W_METER,
  details: { detector: 'burst', from: at(22, 3), to: at(22, 4), volumeMl: 1_500_000, thresholdMl: 1_000_000 },
});
const stuck = alarm({
  id: 'b'.repeat(24),
  type: 'stuck-meter',
  severity: 'minor',
  raisedAt: at(22, 0),
  raisedBy: W_METER,
  details: { detector: 'stuck-meter', from: at(15, 0), to: at(22, 0), days: 7, readings: 28, thresholdDays: 7 },
});

function evidenceOf(panel: HTMLElement, label: string) {
  return within(panel).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent.replace(/[\u202f\u00a0]/gu, ' ');
}

async function inFrench(test: () => Promise<void>) {
  await applyLanguage('fr');
  try {
    await test();
  } finally {
    await applyLanguage('en');
  }
}

describe("a leak detector's alarm in the side panel", () => {
  const open = (record: Alarm) => {
    server.use(http.get(`/api/alarms/${record.id}`, () => HttpResponse.json(detail(record))), ...emptyExtraReads());
    renderWithProviders(<AlarmPanel alarmId={record.id} onClose={() => undefined} />);
  };

  it('names its type, w-meter as the raiser, and words its evidence', async () => {
    open(burst);
    const panel = await screen.findByRole('dialog', { name: 'Burst' });
    expect(evidenceOf(panel, 'Raised')).toBe(`${shown(at(22, 4))} by w-meter`);
    expect(evidenceOf(panel, 'Evidence')).toBe(`1,500 L in the hour from ${shown(at(22, 3))} to ${shown(at(22, 4))}; threshold 1,000 L`);
  });

  it('words it in French', async () => {
    await inFrench(async () => {
      open(stuck);
      const panel = await screen.findByRole('dialog', { name: 'Compteur bloqué' });
      expect(evidenceOf(panel, 'Constat')).toBe(
        `Aucune consommation pendant 7 jours entre ${shown(at(15, 0))} et ${shown(at(22, 0))}, 28 relevés reçus ; seuil 7 jours`,
      );
    });
  });

  it("shows no evidence for a gateway's alarm", async () => {
    open(alarm({ id: ALARM_ID }));
    const panel = await screen.findByRole('dialog', { name: 'Leak' });
    expect(within(panel).queryByText('Evidence', { selector: 'dt' })).toBeNull();
  });
});

describe("a leak detector's alarm in the device's alarms", () => {
  const list = (items: Alarm[]) => {
    server.use(http.get('/api/alarms', () => HttpResponse.json({ items, next: null })), ...emptyExtraReads());
    renderWithProviders(<DeviceAlarms deviceId={METER_ID} />);
  };

  it('shows the evidence beside each detector alarm', async () => {
    list([burst, stuck, alarm({ id: 'c'.repeat(24) })]);
    const grid = await screen.findByRole('grid', { name: 'Alarms' });
    expect(within(grid).getByRole('columnheader', { name: 'Evidence' })).toBeInTheDocument();
    const rows = within(grid).getAllByRole('row').slice(1);
    expect(nth(rows, 0)).toHaveTextContent(/^BurstCritical.*1,500 L in the hour from .*; threshold 1,000 L$/);
    expect(nth(rows, 1)).toHaveTextContent(/^Stuck meterMinor.*No consumption for 7 days from .* 28 readings heard; threshold 7 days$/);
    expect(nth(rows, 2)).toHaveTextContent(/^LeakCriticalActive/);
    expect(nth(rows, 2)).not.toHaveTextContent('threshold');
  });

  it('leaves the column out when no detector raised any', async () => {
    list([alarm()]);
    const grid = await screen.findByRole('grid', { name: 'Alarms' });
    await within(grid).findByText('Leak');
    expect(within(grid).queryByRole('columnheader', { name: 'Evidence' })).toBeNull();
  });

  it('words it in French', async () => {
    await inFrench(async () => {
      list([stuck]);
      const grid = await screen.findByRole('grid', { name: 'Alarmes' });
      expect(within(grid).getByRole('columnheader', { name: 'Constat' })).toBeInTheDocument();
      expect(await within(grid).findByText(/^Aucune consommation pendant 7 jours entre .*, 28 relevés reçus ; seuil 7 jours$/)).toBeInTheDocument();
    });
  });
});
