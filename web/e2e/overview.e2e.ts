import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { Api } from './support/api.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';
import { waitUntil } from './support/processes.ts';

const ctx = inject('wmeter');

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

  it('shows gauges equal to the API counts', async () => {
    // The simulator keeps raising and clearing alerts: compare a page load
    // with counts read just before and just after it, until they agree.
    let shown: Counts | undefined;
    let before: Counts | undefined;
    await waitUntil('gauges that match the API', async () => {
      before = await apiCounts(api);
      await s.page.reload();
      const values = {} as Counts;
      for (const [key, testId] of Object.entries(GAUGES)) {
        // The centre reads '…' until the count has loaded.
        const value = s.page.getByTestId(testId).filter({ hasText: /^\d+$/ });
        await value.waitFor({ timeout: 10_000 });
        const text = await value.textContent();
        values[key as keyof Counts] = Number(text?.replace(/\D/g, ''));
      }
      shown = values;
      const after = await apiCounts(api);
      return JSON.stringify(before) === JSON.stringify(after) && JSON.stringify(after) === JSON.stringify(shown);
    });
    expect(shown).toEqual(before);
    expect(shown?.healthyGateways).toBeGreaterThan(0);
  });

  it('lists gateway activity and opens a gateway from a row', async () => {
    await s.page.getByRole('heading', { name: 'Gateways Activities' }).waitFor();
    await s.page.getByRole('grid').getByRole('row').nth(1).click();
    await s.page.waitForURL(/\/gateways\/[0-9a-f]{24}$/);
  });

  it('opens the healthy gateways list from its gauge', async () => {
    await s.page.goto('/');
    await s.page.getByTestId('gauge-healthy-gateways').click();
    await s.page.waitForURL('**/gateways');
  });
});
