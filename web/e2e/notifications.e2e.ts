import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { Api } from './support/api.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';
import { heardMeter } from './support/fixtures.ts';
import { publishUplink } from './support/mqtt.ts';

const ctx = inject('wmeter');

describe('live notifications', () => {
  let s: Session;
  let api: Api;
  beforeAll(async () => {
    api = await Api.signIn(ctx.base, ctx.admin);
    s = await openBrowser(ctx.base);
    await signIn(s.page, ctx.admin);
  });
  afterAll(async () => {
    await s.close();
  });

  it('shows a new alert live in the bell, and a click opens the meter and removes it', async () => {
    const { meter, gateway } = await heardMeter(api);
    const name = `W-${meter.serialNumber}`;
    await s.page.goto('/');
    await s.page.getByRole('img', { name: 'Live notifications: connected' }).waitFor();

    await publishUplink(ctx, gateway.serialNumber, 'alert', { meter: meter.bleAddress, type: 'e2e-probe', state: 'raised' });

    await s.page.getByRole('button', { name: /^Notifications/ }).click();
    const panel = s.page.getByRole('dialog', { name: 'Notifications' });
    const item = panel.getByRole('button').filter({ hasText: name }).filter({ hasText: 'e2e-probe' });
    await item.first().waitFor({ timeout: 30_000 });
    await item.first().click();
    await s.page.waitForURL(`**/water-meters/${meter._id}`);

    await s.page.getByRole('button', { name: /^Notifications/ }).click();
    await panel.waitFor();
    expect(await panel.getByRole('button').filter({ hasText: name }).count()).toBe(0);
    await s.page.keyboard.press('Escape');
  });
});
