import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { Api } from './support/api.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';
import { anyGateway, unique } from './support/fixtures.ts';
import { publishUplink } from './support/mqtt.ts';
import { waitUntil } from './support/processes.ts';

const ctx = inject('wmeter');
const HOSTILE = '<img src=x onerror=alert(1)>';

describe('device-supplied strings', () => {
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

  it('render a hostile discovered deviceName as text, with no dialog', async () => {
    const gateway = await anyGateway(api);
    await publishUplink(ctx, gateway.serialNumber, 'discovery', { name: HOSTILE, bleAddress: unique.address() });
    await waitUntil('the discovery to be stored', async () => {
      const found = await api.get<{ deviceName: string }[]>(`proxy/gateways/peripheral-discovery/${gateway._id}`);
      return found.some((p) => p.deviceName === HOSTILE);
    });

    await s.page.goto(`/gateways/${gateway._id}`);
    await s.page.getByRole('heading', { name: 'Discovered Peripherals' }).waitFor({ timeout: 30_000 });
    await s.page.getByText(HOSTILE, { exact: true }).first().waitFor();
    expect(await s.page.locator('img[src="x"]').count()).toBe(0);
    expect(s.dialogs).toEqual([]);
  });
});
