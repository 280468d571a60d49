// Devices in bulk (docs/devices-csv.md): an operator imports a CSV of
// gateways; the dry run shows each bad row's problem with the form's own
// message, then the valid rows are registered, and the list shows them.
import { describe, expect, it } from 'vitest';

import type { ApiGateway } from './support/api.ts';
import { unique } from './support/fixtures.ts';
import { browserSuite } from './support/suite.ts';

describe('importing gateways from CSV', () => {
  const suite = browserSuite();

  it('shows the dry run row errors, then registers the valid rows', async () => {
    const { page } = suite;
    const serial = unique.serial();
    const good = [serial, unique.digits(15), unique.digits(10), unique.address(), unique.address(), '48.858370', '2.294481'];
    const bad = [unique.serial(), '12345', unique.digits(10), unique.address(), unique.address(), '', ''];
    const csv = ['serialNumber,imei,phoneNumber,bleAddress,macAddress,latitude,longitude', good.join(','), bad.join(',')].join('\r\n');

    await page.goto('/gateways');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import gateways from a CSV file' });
    await dialog.locator('input[type="file"]').setInputFiles({ name: 'gateways.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

    const problems = dialog.getByRole('table', { name: 'Problems found' });
    const problem = problems.getByRole('row').filter({ hasText: 'IMEI must be exactly 15 digits' });
    await problem.waitFor();
    await expect.poll(() => problem.getByRole('cell').first().textContent()).toBe('2');
    await dialog.getByRole('button', { name: 'Import 1 device' }).click();
    await dialog.getByText('1 device registered').waitFor();

    const gateway = await suite.api.get<ApiGateway>(`proxy/gateways/serial/${serial}`);
    expect(gateway.serialNumber).toBe(serial);
    await page.keyboard.press('Escape');
    await page.getByText(`GTW-${serial}`).first().waitFor();
  });
});
