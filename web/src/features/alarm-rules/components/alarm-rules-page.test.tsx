import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { NavList } from '../../../app/shell/nav-list.tsx';
import { keepStylesInDocument } from '../../../testing/emotion-styles.ts';
import { server } from '../../../testing/msw-server.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { signedInSession } from '../../../testing/tokens.ts';
import { rule, serveRules, WEBHOOK_RULE } from '../testing/rule-fixtures.ts';
import AlarmRulesPage from './alarm-rules-page.tsx';

// The webhook help is checked hidden, then shown: a Collapse hides by its class.
keepStylesInDocument();

const EMAIL_RULE = rule();

const render = (role = 'admin') =>
  renderWithProviders(<><NavList /><AlarmRulesPage /></>, { route: '/admin/rules', preloadedState: { session: { ...signedInSession(), role } } });

const row = (id: string) => screen.getByTestId(`rule-${id}`);

describe('the Alarm rules screen', () => {
  it('lists each rule with what it matches, where it sends and its group window', async () => {
    serveRules([WEBHOOK_RULE, EMAIL_RULE]);
    render();
    expect(screen.getByRole('heading', { level: 1, name: 'Alarm rules' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Alarm rules' })).toHaveAttribute('href', '/admin/rules');
    const table = await screen.findByRole('table', { name: 'Alarm rules' });
    expect(within(table).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Name', 'Enabled', 'Matches', 'Sent to', 'Group window', 'Actions',
    ]);

    const email = row(EMAIL_RULE.id);
    expect(within(email).getByRole('switch', { name: 'Leaks to the night shift enabled' })).toBeChecked();
    for (const word of ['Leak', 'Continuous flow', 'Critical', 'Major', 'All devices', 'Email', 'night@example.com, ops@example.com', '60 s']) {
      expect(within(email).getByText(word)).toBeInTheDocument();
    }
    for (const action of ['Edit', 'Send a test message for', 'Deliveries of', 'Delete']) {
      expect(within(email).getByRole('button', { name: `${action} Leaks to the night shift` })).toBeEnabled();
    }

    const webhook = row(WEBHOOK_RULE.id);
    expect(within(webhook).getByRole('switch', { name: 'Bursts to the SCADA enabled' })).not.toBeChecked();
    for (const word of ['Any alarm type', 'Any severity', 'Gateway 6b031854dbdeac91e41b6334 and its meters', 'Webhook', 'https://scada.example.com/hooks/wmeter', '0 s']) {
      expect(within(webhook).getByText(word)).toBeInTheDocument();
    }
  });

  it('says when there is no rule yet, and explains how to verify a webhook on demand', async () => {
    serveRules([]);
    render();
    expect(await screen.findByText('No alarm rule yet')).toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'How to verify a webhook' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByText('X-WMeter-Delivery')).not.toBeVisible();

    await userEvent.click(toggle);

    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    for (const header of ['X-WMeter-Timestamp', 'X-WMeter-Signature: sha256=<hex>', 'X-WMeter-Delivery']) {
      expect(screen.getByText(header)).toBeVisible();
    }
    expect(screen.getByText('hex = HMAC-SHA256(secret, timestamp + "." + raw body)')).toBeVisible();
  });

  it("turns a rule on by sending its current fields back, without its secret", async () => {
    const served = serveRules([WEBHOOK_RULE]);
    render();
    await userEvent.click(await screen.findByRole('switch', { name: 'Bursts to the SCADA enabled' }));

    expect(await screen.findByText('The rule Bursts to the SCADA is on')).toBeInTheDocument();
    expect(served.changes).toEqual([
      {
        method: 'PUT',
        path: `/api/admin/rules/${WEBHOOK_RULE.id}`,
        body: {
          name: 'Bursts to the SCADA',
          enabled: true,
          match: { types: [], severities: [], devices: { scope: 'gateway', gatewayId: '6b031854dbdeac91e41b6334' } },
          channel: { kind: 'webhook', url: 'https://scada.example.com/hooks/wmeter' },
          groupWindowSecs: 0,
        },
      },
    ]);
    await waitFor(() => { expect(screen.getByRole('switch', { name: 'Bursts to the SCADA enabled' })).toBeChecked(); });
  });

  it('sends a test message and says it was queued', async () => {
    const served = serveRules([EMAIL_RULE]);
    render();
    await userEvent.click(await screen.findByRole('button', { name: 'Send a test message for Leaks to the night shift' }));

    expect(await screen.findByText('Test message queued')).toBeInTheDocument();
    expect(served.changes).toEqual([{ method: 'POST', path: `/api/admin/rules/${EMAIL_RULE.id}/test`, body: null }]);
  });

  it('deletes a rule once confirmed, and not when cancelled', async () => {
    const served = serveRules([EMAIL_RULE, WEBHOOK_RULE]);
    render();
    const user = userEvent.setup();
    const remove = await screen.findByRole('button', { name: 'Delete Leaks to the night shift' });

    await user.click(remove);
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete the rule Leaks to the night shift?' })).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => { expect(screen.queryByRole('dialog')).toBeNull(); });
    expect(served.changes).toEqual([]);

    await user.click(remove);
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete the rule Leaks to the night shift?' })).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('The rule Leaks to the night shift was deleted')).toBeInTheDocument();
    expect(served.changes).toEqual([{ method: 'DELETE', path: `/api/admin/rules/${EMAIL_RULE.id}`, body: null }]);
    await waitFor(() => { expect(screen.queryByTestId(`rule-${EMAIL_RULE.id}`)).toBeNull(); });
  });

  it('says so when the rule changed no longer exists', async () => {
    serveRules([EMAIL_RULE], {}, () => HttpResponse.json({ code: 'not_found', message: 'no such rule' }, { status: 404 }));
    render();
    await userEvent.click(await screen.findByRole('switch', { name: 'Leaks to the night shift enabled' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This rule no longer exists');
  });

  it('tells another role it may not manage alarm rules, offers no menu entry, and asks the server nothing', async () => {
    const served = serveRules([EMAIL_RULE]);
    render('operator');
    expect(screen.getByText('Only admins can manage alarm rules. Your role does not allow it.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Alarm rules' })).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'New rule' })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(served.reads).toBe(0);
  });

  it('tells an admin demoted on the server that it may not, when the list is refused', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(http.get('/api/admin/rules', () => HttpResponse.json({ code: 'forbidden', message: 'no' }, { status: 403 })));
    render();
    expect(await screen.findByText('Only admins can manage alarm rules. Your role does not allow it.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New rule' })).toBeNull();
  });
});
