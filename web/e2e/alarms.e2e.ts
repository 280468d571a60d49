// Alarms (docs/alarms.md): an alert a gateway raises over MQTT becomes an alarm
// that shows on the open Alarms screen without a reload; an operator
// acknowledges it with a note, assigns it and reads its history; the French
// dashboard words alarms and notifications in French.
import { describe, expect, it } from 'vitest';

import { heardMeter, raisedAlarm } from './support/fixtures.ts';
import { publishUplink } from './support/mqtt.ts';
import { expectNotReloaded, LIVE_MS, markPage } from './support/live.ts';
import { browserSuite } from './support/suite.ts';

describe('the Alarms screen', () => {
  const suite = browserSuite();

  it('shows an alarm raised over MQTT within 2 s, with no reload', async () => {
    const { meter, gateway } = await heardMeter(suite.api);
    const { page } = suite;
    await page.goto('/alarms');
    const grid = page.getByRole('grid', { name: 'Alarms' });
    await grid.waitFor();
    await page.getByRole('img', { name: 'Live notifications: connected' }).waitFor();
    await markPage(page);

    const type = `e2e-alarm-${String(Date.now())}`;
    await publishUplink(suite.ctx, gateway.serialNumber, 'alert', { meter: meter.bleAddress, type, state: 'raised' });
    const row = grid.getByRole('row').filter({ hasText: type });
    await row.waitFor({ timeout: LIVE_MS });
    await row.getByText('Active').waitFor();
    await row.getByRole('link', { name: `W-${meter.serialNumber}` }).waitFor();
    await expectNotReloaded(page);
  });

  it('acknowledges an alarm with a note, assigns it, and shows the history', async () => {
    const { meter, gateway } = await heardMeter(suite.api);
    const { page } = suite;
    const { type } = await raisedAlarm(suite.api, suite.ctx, meter, gateway, 'e2e-work');

    await page.goto(`/alarms?type=${type}`);
    await page.getByRole('grid', { name: 'Alarms' }).getByRole('row').filter({ hasText: type }).getByText(type).click();
    const panel = page.getByRole('dialog');
    await panel.getByRole('heading', { name: type }).waitFor();
    await panel.getByLabel('Note (optional)').fill('crew on the way');
    await panel.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await page.getByText('Alarm acknowledged').waitFor();
    const history = panel.getByTestId('alarm-history');
    await history.getByText(new RegExp(`^Acknowledged, .*, by ${suite.ctx.admin.username}$`)).waitFor();
    await history.getByText('crew on the way').waitFor();

    await panel.getByRole('combobox', { name: 'Assign to' }).click();
    await page.getByRole('option', { name: suite.ctx.admin.username, exact: true }).click();
    await panel.getByRole('button', { name: 'Assign', exact: true }).click();
    await history.getByText(new RegExp(`^Assigned to ${suite.ctx.admin.username}, `)).waitFor();

    await panel.getByLabel('Add a comment').fill('valve chamber flooded');
    await panel.getByRole('button', { name: 'Add comment' }).click();
    await history.getByText('valve chamber flooded').waitFor();

    const steps = await history.locator('[data-action]').evaluateAll((items) => items.map((item) => item.getAttribute('data-action')));
    expect(steps).toEqual(['raised', 'acknowledged', 'assigned', 'commented']);
    await panel.getByRole('button', { name: 'Close the alarm panel' }).click();
    const row = page.getByRole('grid', { name: 'Alarms' }).getByRole('row').filter({ hasText: type });
    await row.getByText('Acknowledged').waitFor();
    await row.getByText(suite.ctx.admin.username).waitFor();
  });

  it('counts the active alarms in the shell', async () => {
    const { page } = suite;
    await page.goto('/');
    const counts = await suite.api.get<{ active: number }>('alarms/counts');
    expect(counts.active).toBeGreaterThan(0);
    await page.getByRole('link', { name: /^Active alarms: \d+/ }).click();
    await page.waitForURL('**/alarms?status=active');
    await page.getByRole('button', { name: 'Active', pressed: true }).waitFor();
  });
});

describe('the French dashboard', () => {
  const suite = browserSuite();

  it('words alarms and notifications in French', async () => {
    const { meter, gateway } = await heardMeter(suite.api);
    const { page } = suite;
    await page.goto('/');
    await page.getByRole('button', { name: 'Switch language to French' }).click();
    await page.getByRole('navigation').getByRole('link', { name: 'Alarmes' }).waitFor();
    await page.getByRole('img', { name: 'Notifications en direct : connecté' }).waitFor();

    await publishUplink(suite.ctx, gateway.serialNumber, 'alert', { meter: meter.bleAddress, type: 'leak', state: 'raised' });
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const bell = page.getByRole('dialog', { name: 'Notifications' });
    await bell.getByRole('button').filter({ hasText: `W-${meter.serialNumber}` }).filter({ hasText: 'alerte fuite — déclenchée' }).first().waitFor();
    await page.keyboard.press('Escape');

    await page.goto(`/alarms?device=${meter._id}&type=leak`);
    await page.getByRole('heading', { level: 1, name: 'Alarmes' }).waitFor();
    const row = page.getByRole('grid', { name: 'Alarmes' }).getByRole('row').filter({ hasText: 'Fuite' }).first();
    await row.getByText('Critique').waitFor();
    await row.getByText(/^(Active|Acquittée|Levée|Fermée)$/).waitFor();
    await page.getByRole('columnheader', { name: 'Gravité' }).waitFor();

    await page.getByRole('button', { name: 'Passer en anglais' }).click();
    await page.getByRole('navigation').getByRole('link', { name: 'Alarms' }).waitFor();
  });
});
