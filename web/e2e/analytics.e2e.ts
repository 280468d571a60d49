// Consumption analytics (docs/analytics.md): the meter page's chart draws the
// rollups of the meter's readings, and is read with the keyboard.
import { describe, expect, it } from 'vitest';

import { heardMeter } from './support/fixtures.ts';
import { publishUplink } from './support/mqtt.ts';
import { waitUntil } from './support/processes.ts';
import { browserSuite } from './support/suite.ts';

describe("a meter's consumption chart", () => {
  const suite = browserSuite();

  it('draws a bar for each day of the range, from the rollups', async () => {
    const { meter, gateway } = await heardMeter(suite.api);
    // The simulated households use no water at night (UTC), so the test
    // reports a consumption record of its own.
    await publishUplink(suite.ctx, gateway.serialNumber, 'reading', { meter: meter.bleAddress, record: 42, unit: 'L' });
    await waitUntil('consumption in the rollups', async () => {
      const series = await suite.api.get<{ totalMl: number }>(`rollups?meter=${meter._id}`);
      return series.totalMl > 0;
    });
    // 30 days to the end of this hour span 31 days of the series' zone, or
    // 30 in its last hour of the day: the page's own series says which.
    const daily = suite.page.waitForResponse((r) => r.url().includes('/api/rollups?') && r.url().includes('bucket=day'));
    await suite.page.goto(`/water-meters/${meter._id}`);
    const { points } = (await (await daily).json()) as { points: unknown[] };
    expect([30, 31]).toContain(points.length);
    const figure = suite.page.getByRole('figure', { name: /^Consumption: .* (L|m³) in the range shown$/ });
    await figure.waitFor();
    const bars = figure.locator('.MuiBarChart-element');
    await waitUntil('a bar for each day', async () => (await bars.count()) === points.length);
    // The chart is reached and read with the keyboard.
    await suite.page.getByRole('button', { name: '24 h', exact: true }).click();
    await waitUntil('hourly bars', async () => (await bars.count()) === 24);
    // The arrow keys move from bar to bar, each announced with its hour and volume.
    await figure.locator('[tabindex="0"]').first().focus();
    await suite.page.keyboard.press('ArrowRight');
    const announced = figure.locator('[id^="voiceover-"]').first();
    await waitUntil('the first bar announced', async () => /^Consumption; .+: [\d.,]+ (L|m³)$/.test((await announced.textContent()) ?? ''));
  }, 120_000); // readings go through ingest and the rollups' lingering batches first
});
