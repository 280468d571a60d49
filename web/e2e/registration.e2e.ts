import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { anyGateway, unique } from './support/fixtures.ts';
import { browserSuite } from './support/suite.ts';

async function typeAndBlur(page: Page, label: string, value: string) {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(value);
  await field.blur();
}

describe('registering, editing and deleting devices', () => {
  const suite = browserSuite();

  it('shows every validation message of the gateway form and rejects a duplicate serial', async () => {
    const { page } = suite;
    await page.goto('/gateway-registration');
    await page.getByRole('heading', { name: 'Register Gateway' }).waitFor();
    await typeAndBlur(page, 'Serial Number', 'ABC');
    await page.getByText('Must be exactly 10 alphanumeric characters').waitFor();
    await typeAndBlur(page, 'IMEI', '123');
    await page.getByText('IMEI must be exactly 15 digits').waitFor();
    await typeAndBlur(page, 'Phone Number', '12ab');
    await page.getByText('Phone Number must be exactly 10 digits').waitFor();
    await typeAndBlur(page, 'BLE Address', 'AA:BB');
    await typeAndBlur(page, 'MAC Address', 'zz');
    expect(await page.getByText('Must be in format XX:XX:XX:XX:XX:XX').count()).toBe(2);
    await typeAndBlur(page, 'GPS Coordinates', 'north,south');
    await page.getByText('Invalid GPS format. Use longitude,latitude').waitFor();

    const existing = await anyGateway(suite.api);
    await typeAndBlur(page, 'Serial Number', existing.serialNumber);
    await page.getByText('Serial Number already in use').waitFor();
    await page.getByRole('button', { name: 'Register' }).click();
    expect(new URL(page.url()).pathname).toBe('/gateway-registration');
  });

  it('registers a gateway, edits its phone number, then deletes it', async () => {
    const { page } = suite;
    const serial = unique.serial();
    await page.goto('/gateway-registration');
    await typeAndBlur(page, 'Serial Number', serial);
    await typeAndBlur(page, 'IMEI', unique.digits(15));
    await typeAndBlur(page, 'Phone Number', unique.digits(10));
    await typeAndBlur(page, 'BLE Address', unique.address());
    await typeAndBlur(page, 'MAC Address', unique.address());
    await typeAndBlur(page, 'GPS Coordinates', '4.85, 45.75');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(/\/gateways\/[0-9a-f]{24}$/);
    const id = new URL(page.url()).pathname.split('/').pop() ?? '';
    await page.getByText(serial).first().waitFor();

    const phone = unique.digits(10);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Phone Number', { exact: true }).fill('123');
    await page.getByLabel('Phone Number', { exact: true }).blur();
    await page.getByText('Phone number must be exactly 10 digits').waitFor();
    await page.getByLabel('Phone Number', { exact: true }).fill(phone);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved successfully').waitFor();
    expect((await suite.api.get<{ phoneNumber: string }>(`proxy/gateways/${id}`)).phoneNumber).toBe(phone);

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL('**/gateway-registration');
    await expect(suite.api.get(`proxy/gateways/${id}`)).rejects.toThrow('404');
  });

  it('registers a water meter after its validation messages', async () => {
    const { page } = suite;
    await page.goto('/water-meter-registration');
    await page.getByRole('heading', { name: 'Register Water Meter' }).waitFor();
    await typeAndBlur(page, 'Serial Number', 'W-1');
    await page.getByText('Serial Number must be exactly 10 alphanumeric characters').waitFor();
    await typeAndBlur(page, 'BLE Address', '00-11');
    await page.getByText('BLE Address must be in format XX:XX:XX:XX:XX:XX').waitFor();

    const serial = unique.serial();
    await typeAndBlur(page, 'Serial Number', serial);
    await typeAndBlur(page, 'BLE Address', unique.address());
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(/\/water-meters\/[0-9a-f]{24}$/);
    await page.getByText(serial).first().waitFor();
  });
});
