// The billing export (docs/analytics.md, Exports): from the Water Meters
// list, the dashboard downloads every meter's index at an instant, one row
// per meter, under the name the server gives.
import { readFile } from 'node:fs/promises';

import { describe, expect, it } from 'vitest';

import { browserSuite } from './support/suite.ts';

describe('the billing export', () => {
  const suite = browserSuite();

  it('downloads one row per meter', async () => {
    const { page } = suite;
    await page.goto('/water-meters');
    await page.getByRole('button', { name: 'Export', exact: true }).click(); // not Export CSV, the list's own
    await page.getByRole('menuitem', { name: 'Billing export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Billing export' });
    const download = page.waitForEvent('download');
    await dialog.getByRole('button', { name: 'Download' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^meter-index-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}Z\.csv$/);
    const lines = (await readFile(await file.path(), 'utf8')).split('\r\n').filter((line) => line !== '');
    expect(lines[0]).toBe('meter_id,serial_number,device_name,index_litres,as_of');
    const ids = lines.slice(1).map((line) => line.split(',')[0]);
    const meters = await suite.api.get<{ _id: string }[]>('proxy/wmeters?max=500');
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(meters.map((m) => m._id).sort());
    await dialog.waitFor({ state: 'hidden' });
  });
});
