import { afterAll, beforeAll, describe, inject, it } from 'vitest';

import { openBrowser, signIn, type Session } from './support/browser.ts';
import { unique } from './support/fixtures.ts';

const ctx = inject('wmeter');

describe('a viewer', () => {
  let s: Session;
  beforeAll(async () => {
    s = await openBrowser(ctx.base);
    await signIn(s.page, ctx.viewer);
  });
  afterAll(async () => {
    await s.close();
  });

  it("is told 'Action denied' when registering a gateway", async () => {
    const { page } = s;
    await page.goto('/gateway-registration');
    await page.getByLabel('Serial Number', { exact: true }).fill(unique.serial());
    await page.getByLabel('IMEI', { exact: true }).fill(unique.digits(15));
    await page.getByLabel('Phone Number', { exact: true }).fill(unique.digits(10));
    await page.getByLabel('BLE Address', { exact: true }).fill(unique.address());
    await page.getByLabel('MAC Address', { exact: true }).fill(unique.address());
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('Error registering gateway: Action denied').waitFor();
  });
});
