import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { renderWithProviders } from '../../../testing/render.tsx';
import { rule, serveRules, WEBHOOK_RULE } from '../testing/rule-fixtures.ts';
import AlarmRulesPage from './alarm-rules-page.tsx';

const DEVICE_ID = '6b031854dbdeac91e41b6318';

/** The machine is shared and the dialog is a long form: room beyond the default 5 s. */
const FORM_TEST_TIMEOUT_MS = 20_000;

async function openNewRule() {
  const user = userEvent.setup();
  renderWithProviders(<AlarmRulesPage />, { route: '/admin/rules' });
  await user.click(await screen.findByRole('button', { name: 'New rule' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'New alarm rule' }) };
}

describe('the alarm rule dialog', { timeout: FORM_TEST_TIMEOUT_MS }, () => {
  it('creates a webhook rule and sends exactly its RuleInput, with a generated secret', async () => {
    const served = serveRules([]);
    const { user, dialog } = await openNewRule();
    expect(within(dialog).getByRole('switch', { name: 'Enabled' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'All devices' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'Email' })).toBeChecked();
    expect(within(dialog).getByLabelText(/^Group window/)).toHaveValue(60);

    await user.type(within(dialog).getByLabelText(/^Name/), '  SCADA bursts ');
    await user.type(within(dialog).getByRole('combobox', { name: 'Alarm types' }), 'bur');
    await user.click(await screen.findByRole('option', { name: 'Burst' }));
    await user.type(within(dialog).getByRole('combobox', { name: 'Alarm types' }), 'pressure-drop{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Critical' }));
    await user.click(within(dialog).getByRole('button', { name: 'Major' }));
    expect(within(dialog).getByRole('button', { name: 'Critical' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(dialog).getByRole('radio', { name: 'These devices' }));
    await user.type(within(dialog).getByRole('combobox', { name: /^Device ids/ }), `${DEVICE_ID.toUpperCase()}{Enter}`);
    await user.click(within(dialog).getByRole('radio', { name: 'Webhook' }));
    await user.click(within(dialog).getByLabelText(/^Webhook URL/));
    await user.paste('https://scada.example.com/in');
    const secret = within(dialog).getByLabelText(/^Secret/);
    expect(secret).toHaveAttribute('type', 'password');
    await user.click(within(dialog).getByRole('button', { name: 'Generate' }));
    expect(secret).toHaveAttribute('type', 'text');
    const generated = (secret as HTMLInputElement).value;
    expect(generated).toMatch(/^[A-Za-z0-9_-]{32}$/);
    await user.clear(within(dialog).getByLabelText(/^Group window/));
    await user.type(within(dialog).getByLabelText(/^Group window/), '120');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('The rule SCADA bursts was created')).toBeInTheDocument();
    expect(served.changes).toEqual([
      {
        method: 'POST',
        path: '/api/admin/rules',
        body: {
          name: 'SCADA bursts',
          enabled: true,
          match: { types: ['burst', 'pressure-drop'], severities: ['critical', 'major'], devices: { scope: 'list', ids: [DEVICE_ID] } },
          channel: { kind: 'webhook', url: 'https://scada.example.com/in', secret: generated },
          groupWindowSecs: 120,
        },
      },
    ]);
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    expect(await screen.findByText('https://scada.example.com/in')).toBeInTheDocument();
  });

  it('checks the fields first: a name, recipients, a webhook URL and its secret', async () => {
    const served = serveRules([]);
    const { user, dialog } = await openNewRule();
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByLabelText(/^Name/)).toHaveAccessibleDescription('The name must be 1 to 100 characters');
    expect(within(dialog).getByRole('combobox', { name: /^Recipients/ })).toHaveAccessibleDescription('Enter 1 to 20 valid email addresses');

    await user.click(within(dialog).getByRole('radio', { name: 'Webhook' }));
    await user.type(within(dialog).getByLabelText(/^Webhook URL/), 'ftp://scada.example.com');
    await user.type(within(dialog).getByLabelText(/^Secret/), 'too-short');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByLabelText(/^Webhook URL/)).toHaveAccessibleDescription('Enter an http:// or https:// URL');
    expect(within(dialog).getByLabelText(/^Secret/)).toHaveAccessibleDescription('The secret must be 16 to 256 characters');
    expect(served.changes).toEqual([]);
  });

  it('edits a webhook rule without replacing its secret, which it never shows', async () => {
    const served = serveRules([WEBHOOK_RULE]);
    renderWithProviders(<AlarmRulesPage />, { route: '/admin/rules' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Bursts to the SCADA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the rule Bursts to the SCADA' });
    expect(within(dialog).getByText('A secret is set')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Replace secret/)).toHaveValue('');
    expect(within(dialog).getByRole('radio', { name: 'A gateway and its meters' })).toBeChecked();
    expect(within(dialog).getByLabelText(/^Gateway id/)).toHaveValue('6b031854dbdeac91e41b6334');

    await user.type(within(dialog).getByLabelText(/^Name/), ' (night)');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('The rule Bursts to the SCADA (night) was saved')).toBeInTheDocument();
    expect(served.changes).toEqual([
      {
        method: 'PUT',
        path: `/api/admin/rules/${WEBHOOK_RULE.id}`,
        body: {
          name: 'Bursts to the SCADA (night)',
          enabled: false,
          match: WEBHOOK_RULE.match,
          channel: { kind: 'webhook', url: 'https://scada.example.com/hooks/wmeter' },
          groupWindowSecs: 0,
        },
      },
    ]);
  });

  it("shows the server's refusals: each field's under it, any other as an alert", async () => {
    let answer = HttpResponse.json(
      {
        code: 'validation_failed',
        message: 'Invalid input',
        fields: {
          name: 'the name is taken',
          'match.types': 'unknown alarm type: leek',
          'channel.to': 'not an email address: ops@',
          groupWindowSecs: 'must be 0 to 3600',
        },
      },
      { status: 400 },
    );
    serveRules([rule()], {}, () => answer);
    renderWithProviders(<AlarmRulesPage />, { route: '/admin/rules' });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Leaks to the night shift' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the rule Leaks to the night shift' });

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => {
      expect(within(dialog).getByLabelText(/^Name/)).toHaveAccessibleDescription('The name must be 1 to 100 characters');
    });
    expect(within(dialog).getByRole('combobox', { name: 'Alarm types' })).toHaveAccessibleDescription('Use alarm type names such as leak or burst');
    expect(within(dialog).getByRole('combobox', { name: /^Recipients/ })).toHaveAccessibleDescription('Enter 1 to 20 valid email addresses');
    expect(within(dialog).getByLabelText(/^Group window/)).toHaveAccessibleDescription(
      'The group window must be a whole number of seconds from 0 to 3600',
    );

    answer = HttpResponse.json({ code: 'internal', message: 'boom' }, { status: 500 });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The change failed. Please try again.');
  });
});
