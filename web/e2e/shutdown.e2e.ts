import { describe, it } from 'vitest';

import { heardMeter } from './support/fixtures.ts';
import { publishUplink } from './support/mqtt.ts';
import { waitUntil } from './support/processes.ts';
import { browserSuite } from './support/suite.ts';

describe('answering a shutdown request', () => {
  const suite = browserSuite();

  it('confirms the request; the meter then shows under Down Water Meters', async () => {
    const { meter, gateway } = await heardMeter(suite.api);
    await publishUplink(suite.ctx, gateway.serialNumber, 'shutdown-request', { meter: meter.bleAddress });
    await waitUntil('the request to be stored', async () => {
      const request = await suite.api.get<{ status: string | null }>(`proxy/wmeters/shutdown-requests/${meter._id}`);
      return request.status === 'requested';
    });

    await suite.page.goto(`/water-meters/${meter._id}`);
    const dialog = suite.page.getByRole('dialog', { name: 'Shutdown Requested' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close' }).waitFor();
    await dialog.getByRole('button', { name: 'Reject' }).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await suite.page.getByText('Shutdown response sent').waitFor();

    // The valve command goes to the simulated gateway, which acks it.
    await waitUntil('the meter under Down Water Meters', async () => {
      await suite.page.goto('/down-water-meters');
      await suite.page.getByRole('heading', { name: /^Down Water Meters/ }).waitFor();
      return (await suite.page.getByText(`W-${meter.serialNumber}`).count()) > 0;
    }, 60_000);
  });
});
