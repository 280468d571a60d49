// The network on a map (docs/map.md), offline: no tile server is reachable
// here, so the map is drawn on its plain background. Zoomed out, the
// simulated network's meters gather in clusters coloured by health; a
// cluster zooms in on its devices, and a meter's popup opens its page.
import { describe, expect, it } from 'vitest';

import { waitUntil } from './support/processes.ts';
import { browserSuite } from './support/suite.ts';
import { SIM } from './support/context.ts';

describe('the network map', () => {
  const suite = browserSuite();

  it('shows clusters and markers offline, and opens a meter from its marker', { timeout: 150_000 }, async () => {
    // The map's cells are counted once a minute: wait for a count that
    // holds the simulated network.
    await waitUntil(
      'the map counted',
      async () => (await suite.api.get<{ devices: number }>('map/extent')).devices >= SIM.gateways + SIM.meters,
      90_000,
    );
    const { page } = suite;
    await page.goto('/map');
    const map = page.getByRole('region', { name: 'Network map' });
    await map.waitFor();
    await map.getByRole('status').getByText(/^\d+ devices in view$/).waitFor();

    // Zoomed out, meters close together are clusters.
    const clusters = map.getByRole('button', { name: /^Cluster of \d+ devices, worst health (healthy|lost|down|critical)$/ });
    for (let zoomedOut = 0; (await clusters.count()) === 0; zoomedOut += 1) {
      if (zoomedOut === 6) throw new Error('no cluster after zooming out six times');
      await map.getByRole('button', { name: 'Zoom out' }).click();
      await page.waitForTimeout(1000);
    }
    const cluster = clusters.first();
    const count = Number((await cluster.getAttribute('aria-label'))?.match(/Cluster of (\d+)/)?.[1]);
    expect(count).toBeGreaterThan(1);

    // A cluster zooms in until its meters stand alone.
    const meters = map.getByRole('button', { name: /^W-SM07\d{6}, meter, (healthy|lost|down|critical)$/ });
    await cluster.click();
    await waitUntil('the meters of the cluster', async () => (await meters.count()) > 0, 20_000);
    const marker = meters.first();
    const name = (await marker.getAttribute('aria-label'))?.split(',')[0] ?? '';
    // Meters a few metres apart overlap on screen: the keyboard opens this
    // one's popup, whichever is drawn on top.
    // The view may still be settling (the zoom's animation, then the
    // markers of the new view replace these): open the popup again until
    // its link holds still long enough to be clicked, and the click opens
    // the meter's page (a link replaced as it was clicked opens nothing).
    const popup = page.getByRole('region', { name });
    const meterPage = /\/water-meters\/[0-9a-f]{24}$/;
    await waitUntil("the meter's page, opened from its popup", async () => {
      if (meterPage.test(page.url())) return true;
      await map.getByRole('button', { name: new RegExp(`^${name}, meter, `) }).first().focus();
      await page.keyboard.press('Enter');
      await popup.getByRole('link', { name: 'Open' }).click({ timeout: 5_000 });
      await page.waitForURL(meterPage, { timeout: 5_000 });
      return true;
    }, 40_000);
    await page.getByText(name).first().waitFor();
  });
});
