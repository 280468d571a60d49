import { describe, expect, it } from 'vitest';

import { heardMeter } from './support/fixtures.ts';
import { publishUplink } from './support/mqtt.ts';
import { browserSuite } from './support/suite.ts';

describe('live notifications', () => {
  const suite = browserSuite();

  it('shows a new alert live in the bell, and a click opens the meter and removes it', async () => {
    const { meter, gateway } = await heardMeter(suite.api);
    const name = `W-${meter.serialNumber}`;
    await suite.page.goto('/');
    await suite.page.getByRole('img', { name: 'Live notifications: connected' }).waitFor();

    await publishUplink(suite.ctx, gateway.serialNumber, 'alert', { meter: meter.bleAddress, type: 'e2e-probe', state: 'raised' });

    await suite.page.getByRole('button', { name: /^Notifications/ }).click();
    const panel = suite.page.getByRole('dialog', { name: 'Notifications' });
    const item = panel.getByRole('button').filter({ hasText: name }).filter({ hasText: 'e2e-probe' });
    await item.first().waitFor({ timeout: 30_000 });
    await item.first().click();
    await suite.page.waitForURL(`**/water-meters/${meter._id}`);

    await suite.page.getByRole('button', { name: /^Notifications/ }).click();
    await panel.waitFor();
    // The probe's own item, not every item naming the meter: the live
    // simulator raises alerts of its own for its meters, and one may arrive
    // after the click.
    expect(await item.count()).toBe(0);
    await suite.page.keyboard.press('Escape');
  });
});
