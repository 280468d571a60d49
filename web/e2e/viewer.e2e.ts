import { describe, it } from 'vitest';

import { heardMeter, raisedAlarm } from './support/fixtures.ts';
import { publishUplink } from './support/mqtt.ts';
import { waitUntil } from './support/processes.ts';
import { browserSuite } from './support/suite.ts';

describe('a viewer', () => {
  const suite = browserSuite({ as: 'viewer' });

  const absent = async (name: string) => {
    const count = await suite.page.getByRole('button', { name, exact: true }).count();
    if (count !== 0) throw new Error(`a viewer is offered ${name}`);
  };

  it('is offered no Edit, Delete, Register, Confirm or Acknowledge', async () => {
    const { page } = suite;
    const { meter, gateway } = await heardMeter(suite.api);
    await publishUplink(suite.ctx, gateway.serialNumber, 'shutdown-request', { meter: meter.bleAddress });
    await waitUntil('the request to be stored', async () => {
      const request = await suite.api.get<{ status: string | null }>(`proxy/wmeters/shutdown-requests/${meter._id}`);
      return request.status === 'requested';
    });

    await page.goto(`/water-meters/${meter._id}`);
    const dialog = page.getByRole('dialog', { name: 'Shutdown Requested' });
    await dialog.getByRole('button', { name: 'Close' }).waitFor();
    for (const name of ['Confirm', 'Reject']) await absent(name);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('grid', { name: 'Critical Alerts' }).waitFor();
    for (const name of ['Edit', 'Delete']) await absent(name);

    // Leave no request pending: the next test's meter page would open its dialog.
    await suite.api.send('PATCH', `proxy/wmeters/shutdown-requests/${meter._id}`, { status: 'rejected' });
    await page.goto(`/gateways/${gateway._id}`);
    await page.getByRole('heading', { level: 1, name: `GTW-${gateway.serialNumber}` }).waitFor();
    for (const name of ['Edit', 'Delete']) await absent(name);

    const { type } = await raisedAlarm(suite.api, suite.ctx, meter, gateway, 'e2e-viewer');
    await page.goto(`/alarms?type=${type}`);
    const alarm = page.getByRole('grid', { name: 'Alarms' }).getByRole('row').filter({ hasText: type });
    await alarm.getByText(type).click();
    await page.getByRole('dialog').getByTestId('alarm-history').waitFor();
    for (const name of ['Acknowledge', 'Clear', 'Assign', 'Add comment']) await absent(name);
    await page.getByRole('button', { name: 'Close the alarm panel' }).click();
    await absent('Acknowledge selected (0)');
    if ((await page.getByRole('checkbox').count()) !== 0) throw new Error('a viewer is offered row selection');

    await page.goto('/gateway-registration');
    await page.getByText(/Your role can view devices but not register them/).waitFor();
    await absent('Register');
    if ((await page.getByRole('link', { name: 'Gateway Registration' }).count()) !== 0) {
      throw new Error('a viewer is offered the registration page');
    }
  });
});
