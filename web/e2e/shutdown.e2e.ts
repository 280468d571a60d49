import { afterAll, beforeAll, describe, inject, it } from 'vitest';

import { Api } from './support/api.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';
import { heardMeter } from './support/fixtures.ts';
import { publishUplink } from './support/mqtt.ts';
import { waitUntil } from './support/processes.ts';

const ctx = inject('wmeter');

describe('answering a shutdown request', () => {
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

  it('confirms the request; the meter then shows under Down Water Meters', async () => {
    const { meter, gateway } = await heardMeter(api);
    await publishUplink(ctx, gateway.serialNumber, 'shutdown-request', { meter: meter.bleAddress });
    await waitUntil('the request to be stored', async () => {
      const request = await api.get<{ status: string | null }>(`proxy/wmeters/shutdown-requests/${meter._id}`);
      return request.status === 'requested';
    });

    await s.page.goto(`/water-meters/${meter._id}`);
    const dialog = s.page.getByRole('dialog', { name: 'Shutdown Requested' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close' }).waitFor();
    await dialog.getByRole('button', { name: 'Reject' }).waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await s.page.getByText('Shutdown response sent').waitFor();

    // The valve command goes to the simulated gateway, which acks it.
    await waitUntil('the meter under Down Water Meters', async () => {
      await s.page.goto('/down-water-meters');
      await s.page.getByRole('heading', { name: /^Down Water Meters/ }).waitFor();
      return (await s.page.getByText(`W-${meter.serialNumber}`).count()) > 0;
    }, 60_000);
  });
});
