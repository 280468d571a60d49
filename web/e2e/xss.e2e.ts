import { describe, expect, it } from 'vitest';

import { anyGateway, unique } from './support/fixtures.ts';
import { publishUplink } from './support/mqtt.ts';
import { waitUntil } from './support/processes.ts';
import { browserSuite } from './support/suite.ts';

// An event handler, a script and SVG: any of them run sets the flag or opens
// a dialog. (Alert types cannot carry markup: ingest takes only word
// characters there, and dead-letters the rest.)
const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '<script>window.__wmXss=1</script>',
  '<svg onload="window.__wmXss=2"><circle r="9"/></svg>',
];

describe('device-supplied strings', () => {
  const suite = browserSuite();

  it('render hostile discovered device names as text, running nothing', async () => {
    const gateway = await anyGateway(suite.api);
    for (const name of HOSTILE) {
      await publishUplink(suite.ctx, gateway.serialNumber, 'discovery', { name, bleAddress: unique.address() });
    }
    await waitUntil('the discoveries to be stored', async () => {
      const found = await suite.api.get<{ deviceName: string }[]>(`proxy/gateways/peripheral-discovery/${gateway._id}`);
      return HOSTILE.every((name) => found.some((p) => p.deviceName === name));
    });

    await suite.page.goto(`/gateways/${gateway._id}`);
    await suite.page.getByRole('heading', { name: 'Discovered Peripherals' }).waitFor({ timeout: 30_000 });
    for (const name of HOSTILE) {
      await suite.page.getByText(name, { exact: true }).first().waitFor();
    }
    expect(await suite.page.locator('img[src="x"]').count()).toBe(0);
    expect(await suite.page.locator('svg[onload]').count()).toBe(0);
    expect(await suite.page.evaluate(() => (window as { __wmXss?: number }).__wmXss)).toBeUndefined();
    expect(suite.dialogs).toEqual([]);
  });
});
