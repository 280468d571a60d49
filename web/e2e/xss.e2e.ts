import { describe, expect, it } from 'vitest';

import { anyGateway, unique } from './support/fixtures.ts';
import { publishUplink } from './support/mqtt.ts';
import { waitUntil } from './support/processes.ts';
import { browserSuite } from './support/suite.ts';

const HOSTILE = '<img src=x onerror=alert(1)>';

describe('device-supplied strings', () => {
  const suite = browserSuite();

  it('render a hostile discovered deviceName as text, with no dialog', async () => {
    const gateway = await anyGateway(suite.api);
    await publishUplink(suite.ctx, gateway.serialNumber, 'discovery', { name: HOSTILE, bleAddress: unique.address() });
    await waitUntil('the discovery to be stored', async () => {
      const found = await suite.api.get<{ deviceName: string }[]>(`proxy/gateways/peripheral-discovery/${gateway._id}`);
      return found.some((p) => p.deviceName === HOSTILE);
    });

    await suite.page.goto(`/gateways/${gateway._id}`);
    await suite.page.getByRole('heading', { name: 'Discovered Peripherals' }).waitFor({ timeout: 30_000 });
    await suite.page.getByText(HOSTILE, { exact: true }).first().waitFor();
    expect(await suite.page.locator('img[src="x"]').count()).toBe(0);
    expect(suite.dialogs).toEqual([]);
  });
});
