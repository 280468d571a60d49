import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { renderWithProviders } from '../../../testing/render.tsx';
import { delivery, serveRules, WEBHOOK_RULE } from '../testing/rule-fixtures.ts';
import AlarmRulesPage from './alarm-rules-page.tsx';

const DELIVERED = delivery();
const ABANDONED = delivery({
  id: 'd-2',
  createdAt: '2026-11-19T09:00:00Z',
  status: 'abandoned',
  alarmCount: 1,
  attempts: [
    { at: '2026-11-19T09:00:01Z', outcome: 'failed', statusCode: 503, latencyMs: 1240, error: 'Service Unavailable' },
    { at: '2026-11-19T09:05:01Z', outcome: 'failed', statusCode: null, latencyMs: 10000, error: 'timed out after 10 s' },
  ],
  reason: 'gave up after 2 failed attempts',
});
const PENDING = delivery({
  id: 'd-3',
  createdAt: '2026-11-18T09:00:00Z',
  status: 'pending',
  test: true,
  alarmCount: 0,
  attempts: [],
  nextAttemptAt: '2026-11-18T09:10:00Z',
});

async function openDeliveries() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Deliveries of Bursts to the SCADA' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'Deliveries of Bursts to the SCADA' }) };
}

describe("a rule's deliveries", () => {
  it('shows each delivery with its last response, the abandoned reason, and every attempt on demand', async () => {
    serveRules([WEBHOOK_RULE], { [WEBHOOK_RULE.id]: [DELIVERED, ABANDONED, PENDING] });
    renderWithProviders(<AlarmRulesPage />, { route: '/admin/rules' });
    const { user, dialog } = await openDeliveries();
    const table = await within(dialog).findByRole('table', { name: 'Deliveries' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      '', 'Created', 'Test', 'Alarms', 'Status', 'Attempts', 'Last response', 'Reason',
    ]);

    const delivered = within(dialog).getByTestId('delivery-d-1');
    expect(within(delivered).getByText(/^20-11-26, \d\d:\d\d$/)).toBeInTheDocument();
    expect(within(delivered).getByText('Delivered')).toBeInTheDocument();
    expect(within(delivered).getByText('204 · 87 ms')).toBeInTheDocument();

    const abandoned = within(dialog).getByTestId('delivery-d-2');
    expect(within(abandoned).getByText('Abandoned')).toBeInTheDocument();
    expect(within(abandoned).getByText('NA · 10,000 ms')).toBeInTheDocument();
    expect(within(abandoned).getByText('timed out after 10 s')).toBeInTheDocument();
    expect(within(abandoned).getByText('gave up after 2 failed attempts')).toBeInTheDocument();

    const pending = within(dialog).getByTestId('delivery-d-3');
    expect(within(pending).getByText('Pending')).toBeInTheDocument();
    expect(within(pending).getByText('Yes')).toBeInTheDocument();
    expect(within(pending).getByText('No attempt yet')).toBeInTheDocument();
    expect(within(pending).getByText(/^Next attempt 18-11-26, \d\d:\d\d$/)).toBeInTheDocument();

    await user.click(within(abandoned).getByRole('button', { name: 'Show the attempts' }));

    const attempts = await within(dialog).findByRole('table', { name: 'Attempts' });
    const rows = within(attempts).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent).slice(1))).toEqual([
      ['Failed', '503', '1,240 ms', 'Service Unavailable'],
      ['Failed', 'NA', '10,000 ms', 'timed out after 10 s'],
    ]);
    expect(rows[0]).toHaveTextContent(/^19-11-26, \d\d:\d\d/);
    expect(within(abandoned).getByRole('button', { name: 'Hide the attempts' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('reads them again on Refresh, and says when nothing was sent yet', async () => {
    const sent: Record<string, typeof DELIVERED[]> = { [WEBHOOK_RULE.id]: [] };
    serveRules([WEBHOOK_RULE], sent);
    renderWithProviders(<AlarmRulesPage />, { route: '/admin/rules' });
    const { user, dialog } = await openDeliveries();
    expect(await within(dialog).findByText('Nothing sent yet')).toBeInTheDocument();

    sent[WEBHOOK_RULE.id] = [DELIVERED];
    await user.click(within(dialog).getByRole('button', { name: 'Refresh' }));

    expect(await within(dialog).findByTestId('delivery-d-1')).toHaveTextContent('Delivered');
  });
});
