import { describe, expect, it } from 'vitest';

import type { Api } from './support/api.ts';
import { openBrowser, signIn } from './support/browser.ts';
import { waitUntil } from './support/processes.ts';
import { browserSuite } from './support/suite.ts';

interface Counts {
  healthyGateways: number;
  healthyMeters: number;
  lostGateways: number;
  lostMeters: number;
  criticalMeters: number;
}

async function apiCounts(api: Api): Promise<Counts> {
  const [gateways, lostGateways, meters, unhealthy, lostMeters, criticalMeters] = await Promise.all(
    ['gateways', 'gateways/lost', 'wmeters', 'wmeters/unhealthy', 'wmeters/lost', 'wmeters/critical'].map((p) =>
      api.count(p),
    ),
  );
  return {
    healthyGateways: (gateways ?? 0) - (lostGateways ?? 0),
    healthyMeters: (meters ?? 0) - (unhealthy ?? 0),
    lostGateways: lostGateways ?? 0,
    lostMeters: lostMeters ?? 0,
    criticalMeters: criticalMeters ?? 0,
  };
}

const GAUGES: Record<keyof Counts, string> = {
  healthyGateways: 'gauge-healthy-gateways',
  healthyMeters: 'gauge-healthy-meters',
  lostGateways: 'gauge-lost-gateways',
  lostMeters: 'gauge-lost-meters',
  criticalMeters: 'gauge-critical-meters',
};

describe('the overview', () => {
  const suite = browserSuite();

  it('shows gauges equal to the API counts', async () => {
    // The simulator keeps raising and clearing alerts: compare a page load
    // with counts read just before and just after it, until they agree.
    let shown: Counts | undefined;
    let before: Counts | undefined;
    await waitUntil('gauges that match the API', async () => {
      before = await apiCounts(suite.api);
      await suite.page.reload();
      const values = {} as Counts;
      for (const [key, testId] of Object.entries(GAUGES)) {
        // The centre reads '…' until the count has loaded.
        const value = suite.page.getByTestId(testId).filter({ hasText: /^\d+$/ });
        await value.waitFor({ timeout: 10_000 });
        const text = await value.textContent();
        values[key as keyof Counts] = Number(text?.replace(/\D/g, ''));
      }
      shown = values;
      const after = await apiCounts(suite.api);
      return JSON.stringify(before) === JSON.stringify(after) && JSON.stringify(after) === JSON.stringify(shown);
    });
    expect(shown).toEqual(before);
    expect(shown?.healthyGateways).toBeGreaterThan(0);
  });

  it('lists gateway activity and opens a gateway from a row', async () => {
    await suite.page.getByRole('heading', { name: 'Gateways Activities' }).waitFor();
    await suite.page.getByRole('grid').getByRole('row').nth(1).click();
    await suite.page.waitForURL(/\/gateways\/[0-9a-f]{24}$/);
  });

  it('comes compressed on a first load: every script over 1 KiB in brotli', async () => {
    const session = await openBrowser(suite.ctx.base);
    try {
      const scripts: { name: string; encoding: string | undefined; length: number }[] = [];
      session.page.on('response', (response) => {
        const name = new URL(response.url()).pathname;
        if (!/^\/assets\/[^/]+\.js$/.test(name)) return;
        const headers = response.headers();
        scripts.push({ name, encoding: headers['content-encoding'], length: Number(headers['content-length']) });
      });
      await signIn(session.page, suite.ctx.admin);
      await session.page.getByTestId('gauge-healthy-gateways').waitFor();
      expect(scripts.filter((s) => s.encoding === 'br').length).toBeGreaterThan(10);
      expect(scripts.filter((s) => s.encoding !== undefined && s.encoding !== 'br')).toEqual([]);
      // Sent as built: only what the build left without a copy, under 1 KiB.
      for (const script of scripts.filter((s) => s.encoding === undefined)) {
        expect(script.length, script.name).toBeLessThan(1024);
      }
    } finally {
      await session.close();
    }
  });

  it('opens the healthy gateways list from its gauge', async () => {
    await suite.page.goto('/');
    await suite.page.getByTestId('gauge-healthy-gateways').click();
    await suite.page.waitForURL('**/gateways');
  });
});
