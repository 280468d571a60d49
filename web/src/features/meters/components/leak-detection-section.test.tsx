import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { applyLanguage } from '../../../lib/i18n.ts';
import { emptyExtraReads, meterThresholds } from '../../../testing/extra-reads.ts';
import { server } from '../../../testing/msw-server.ts';
import { METER_ID } from '../../../testing/records.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInSession } from '../../../testing/tokens.ts';
import { detailHandlers } from '../testing/fixtures.ts';
import { LeakDetectionSection } from './leak-detection-section.tsx';
import MeterDetailPage from './meter-detail-page.tsx';

const OPERATOR = { userId: '6b031854dbdeac91e41b6318', username: 'olivia', role: 'operator' };
/** Long ago, so that the dashboard shows the date. */
const SET_AT = new Date(2025, 10, 22, 14, 5).toISOString();
const OWN = meterThresholds(METER_ID, { continuousFlowHours: 12 }, { by: { id: OPERATOR.userId, name: OPERATOR.username }, at: SET_AT });

const as = (role: string) => ({ preloadedState: { session: { ...signedInSession(), role } } });

/** Serves `first`, then what each PUT answers; returns the PUT bodies. */
function serveThresholds(first = OWN, answer: (body: unknown) => Response = () => HttpResponse.json(meterThresholds(METER_ID))) {
  const bodies: unknown[] = [];
  let current: object = first;
  server.use(
    http.get(`/api/thresholds/${METER_ID}`, () => HttpResponse.json(current)),
    http.put(`/api/thresholds/${METER_ID}`, async ({ request }) => {
      const body = await request.json();
      bodies.push(body);
      const response = answer(body);
      if (response.ok) current = (await response.clone().json()) as object;
      return response;
    }),
    ...emptyExtraReads(),
  );
  return bodies;
}

const section = () => screen.getByRole('region', { name: 'Leak detection' });
const valueOf = (label: string) =>
  within(section()).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

async function openEditor(role = 'operator', [edit, title] = ['Edit thresholds', 'Leak detection thresholds']) {
  renderWithProviders(<LeakDetectionSection meterId={METER_ID} />, as(role));
  await userEvent.click(await screen.findByRole('button', { name: edit }));
  return screen.getByRole('dialog', { name: title });
}

describe('Leak detection on the meter page', () => {
  it("shows a viewer the thresholds in force, the meter's own beside its default, who set them, and no edit control", async () => {
    server.use(...detailHandlers());
    serveThresholds();
    renderWithProviders(<MeterDetailPage />, { route: `/water-meters/${METER_ID}`, path: '/water-meters/:meterId', ...as('viewer') });
    expect(await screen.findByRole('heading', { level: 2, name: 'Leak detection' })).toBeInTheDocument();
    await within(section()).findByText(/^Last set by olivia, /);
    expect(valueOf('Continuous flow')).toBe('12 hours (set for this meter; default 24 hours)');
    expect(valueOf('Night flow')).toBe('5 L an hour (network default)');
    expect(valueOf('Burst')).toBe('1,000 L an hour (network default)');
    expect(valueOf('Stuck meter')).toBe('7 days (network default)');
    expect(within(section()).getByText('Last set by olivia, 22-11-25, 14:05')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit thresholds' })).toBeNull();
  });

  it('says when the meter follows the network defaults', async () => {
    serveThresholds(meterThresholds(METER_ID));
    renderWithProviders(<LeakDetectionSection meterId={METER_ID} />, as('viewer'));
    expect(await within(await screen.findByRole('region', { name: 'Leak detection' })).findByText('This meter follows the network defaults.')).toBeInTheDocument();
    expect(valueOf('Continuous flow')).toBe('24 hours (network default)');
  });

  it('words the thresholds in French, and names who set them', async () => {
    const by = { id: signedInSession().userId, name: 'alice' };
    serveThresholds(meterThresholds(METER_ID, { nightFlowLitresPerHour: 2.5, stuckMeterDays: 1 }, { by, at: SET_AT }));
    await applyLanguage('fr');
    try {
      renderWithProviders(<LeakDetectionSection meterId={METER_ID} />, as('viewer'));
      const region = await screen.findByRole('region', { name: 'Détection des fuites' });
      expect(await within(region).findByText('Dernière modification par alice, 22-11-25, 14:05')).toBeInTheDocument();
      const value = (label: string) => within(region).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent.replace(/\s/gu, ' ');
      expect(value('Débit continu')).toBe('24 heures (valeur par défaut du réseau)');
      expect(value('Débit nocturne')).toBe('2,5 L par heure (propre à ce compteur ; par défaut 5 L par heure)');
      expect(value('Rupture de canalisation')).toBe('1 000 L par heure (valeur par défaut du réseau)');
      expect(value('Compteur bloqué')).toBe('1 jour (propre à ce compteur ; par défaut 7 jours)');
    } finally {
      await applyLanguage('en');
    }
  });
});

describe('Edit thresholds', () => {
  it("starts from the meter's own, shows each default, and sends the four thresholds whole", async () => {
    const bodies = serveThresholds(OWN, () => HttpResponse.json(meterThresholds(METER_ID, { continuousFlowHours: 36, nightFlowLitresPerHour: 2.5 })));
    const dialog = await openEditor();
    const hours = within(dialog).getByRole('textbox', { name: 'Continuous flow (hours)' });
    expect(hours).toHaveValue('12');
    const night = within(dialog).getByRole('textbox', { name: 'Night flow (litres an hour)' });
    expect(night).toHaveValue('');
    expect(night).toHaveAttribute('placeholder', '5');
    expect(night).toHaveAccessibleDescription('Default: 5 L an hour');
    expect(within(dialog).getByRole('textbox', { name: 'Burst (litres an hour)' })).toHaveAccessibleDescription('Default: 1,000 L an hour');

    await userEvent.clear(hours);
    await userEvent.type(hours, '36');
    await userEvent.type(night, '2.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Thresholds saved')).toBeInTheDocument();
    expect(bodies).toEqual([{ continuousFlowHours: 36, nightFlowLitresPerHour: 2.5, burstLitresPerHour: null, stuckMeterDays: null }]);
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    await waitFor(() => { expect(valueOf('Continuous flow')).toBe('36 hours (set for this meter; default 24 hours)'); });
  });

  it("refuses a value out of range with the server's message, and sends nothing", async () => {
    const bodies = serveThresholds();
    const dialog = await openEditor();
    const hours = within(dialog).getByRole('textbox', { name: 'Continuous flow (hours)' });
    await userEvent.clear(hours);
    await userEvent.type(hours, '1');
    const days = within(dialog).getByRole('textbox', { name: 'Stuck meter (days)' });
    await userEvent.type(days, '7.5');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(hours).toHaveAttribute('aria-invalid', 'true');
    expect(hours).toHaveAccessibleDescription('Must be a whole number of hours from 2 to 168');
    expect(days).toHaveAccessibleDescription('Must be a whole number of days from 1 to 365');
    expect(bodies).toEqual([]);

    await userEvent.type(hours, '2');
    expect(hours).toHaveAttribute('aria-invalid', 'false');
    expect(hours).toHaveAccessibleDescription('Default: 24 hours');
  });

  it('shows the field the server refuses on its input, and keeps the dialog open', async () => {
    const message = 'Must be from 0.001 to 1000000 litres an hour';
    const bodies = serveThresholds(OWN, () =>
      HttpResponse.json({ code: 'validation_failed', message, fields: { burstLitresPerHour: message } }, { status: 400 }),
    );
    const dialog = await openEditor();
    const burst = within(dialog).getByRole('textbox', { name: 'Burst (litres an hour)' });
    await userEvent.type(burst, '0.0005');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => { expect(burst).toHaveAttribute('aria-invalid', 'true'); });
    expect(burst).toHaveAccessibleDescription(message);
    expect(bodies).toEqual([{ continuousFlowHours: 12, nightFlowLitresPerHour: null, burstLitresPerHour: 0.0005, stuckMeterDays: null }]);
    expect(screen.getByRole('dialog', { name: 'Leak detection thresholds' })).toBeInTheDocument();
  });

  it('puts the meter back on the defaults', async () => {
    const bodies = serveThresholds();
    const dialog = await openEditor('admin');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Use defaults' }));
    expect(within(dialog).getByRole('textbox', { name: 'Continuous flow (hours)' })).toHaveValue('');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Thresholds saved')).toBeInTheDocument();
    expect(bodies).toEqual([{ continuousFlowHours: null, nightFlowLitresPerHour: null, burstLitresPerHour: null, stuckMeterDays: null }]);
    await waitFor(() => { expect(valueOf('Continuous flow')).toBe('24 hours (network default)'); });
  });

  it('cancels without a request, and says so when the server denies the change', async () => {
    const bodies = serveThresholds(OWN, () => HttpResponse.json({ code: 'forbidden', message: 'Forbidden' }, { status: 403 }));
    const dialog = await openEditor();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    expect(bodies).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Edit thresholds' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to save the thresholds: Action denied')).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
  });

  it('checks a field in French, where the comma is the decimal mark', async () => {
    const bodies = serveThresholds();
    await applyLanguage('fr');
    try {
      const dialog = await openEditor('operator', ['Modifier les seuils', 'Seuils de détection des fuites']);
      const night = within(dialog).getByRole('textbox', { name: 'Débit nocturne (litres par heure)' });
      await userEvent.type(night, '0,0001');
      await userEvent.tab();
      expect(night).toHaveAccessibleDescription('Doit être compris entre 0,001 et 1 000 000 litres par heure');
      await userEvent.clear(night);
      await userEvent.type(night, '2,5');
      await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
      expect(await screen.findByText('Seuils enregistrés')).toBeInTheDocument();
      expect(bodies).toEqual([{ continuousFlowHours: 12, nightFlowLitresPerHour: 2.5, burstLitresPerHour: null, stuckMeterDays: null }]);
    } finally {
      await applyLanguage('en');
    }
  });
});
