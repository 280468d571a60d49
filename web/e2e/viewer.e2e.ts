import { describe, it } from 'vitest';

import { unique } from './support/fixtures.ts';
import { browserSuite } from './support/suite.ts';

describe('a viewer', () => {
  const suite = browserSuite({ as: 'viewer' });

  it("is told 'Action denied' when registering a gateway", async () => {
    const { page } = suite;
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
