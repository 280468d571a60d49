// Live pages (DESIGN §11): what a gateway sends shows on the open page without
// a reload, through the notification stream's change hints.
import { describe, it } from 'vitest';

import { heardMeter } from './support/fixtures.ts';
import { publishUplink } from './support/mqtt.ts';
import { expectNotReloaded, LIVE_MS, markPage } from './support/live.ts';
import { browserSuite } from './support/suite.ts';

describe('an open meter page', () => {
  const suite = browserSuite();

  it('shows an alert, its alarm and a shutdown request raised over MQTT, with no reload', async () => {
    const { meter, gateway } = await heardMeter(suite.api);
    const { page } = suite;
    await page.goto(`/water-meters/${meter._id}`);
    const alerts = page.getByRole('grid', { name: 'Critical Alerts' });
    await alerts.waitFor();
    await page.getByRole('img', { name: 'Live notifications: connected' }).waitFor();
    // Gone if the page reloads.
    await markPage(page);

    const type = `e2e-live-${String(Date.now())}`;
    await publishUplink(suite.ctx, gateway.serialNumber, 'alert', { meter: meter.bleAddress, type, state: 'raised' });
    await alerts.getByText(type).waitFor({ timeout: LIVE_MS });
    // …and the alarm it raised, with its lifecycle state.
    const alarm = page.getByRole('grid', { name: 'Alarms' }).getByRole('row').filter({ hasText: type });
    await alarm.getByText('Active').waitFor({ timeout: LIVE_MS });

    await publishUplink(suite.ctx, gateway.serialNumber, 'shutdown-request', { meter: meter.bleAddress });
    await page.getByRole('dialog', { name: 'Shutdown Requested' }).waitFor({ timeout: LIVE_MS });
    // Leave no request pending: the next test's meter page would open its dialog.
    await suite.api.send('PATCH', `proxy/wmeters/shutdown-requests/${meter._id}`, { status: 'rejected' });
    await expectNotReloaded(page);
  });
});
