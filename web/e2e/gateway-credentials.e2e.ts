// Each gateway signs in as itself (docs/device-plane.md): an operator
// issues a gateway its secret on the gateway's page, the gateway signs in
// with it to the real broker and is heard, and once the operator revokes
// it, the broker refuses it.
import { describe, expect, it } from 'vitest';

import type { ApiGateway } from './support/api.ts';
import { unique } from './support/fixtures.ts';
import { publishUplink } from './support/mqtt.ts';
import { waitUntil } from './support/processes.ts';
import { browserSuite } from './support/suite.ts';

describe("a gateway's MQTT credentials", () => {
  const suite = browserSuite();

  it('issues a secret the gateway signs in with, then revokes it', async () => {
    const { page, api, ctx } = suite;
    const serial = unique.serial();
    await api.send('POST', 'proxy/gateways/', {
      serialNumber: serial,
      imei: unique.digits(15),
      phoneNumber: unique.digits(10),
      bleAddress: unique.address(),
      macAddress: unique.address(),
    });
    const gateway = await api.get<ApiGateway>(`proxy/gateways/serial/${serial}`);

    await page.goto(`/gateways/${gateway._id}`);
    await page.getByRole('button', { name: 'Issue secret' }).click();
    const dialog = page.getByRole('dialog', { name: `MQTT secret for ${serial}` });
    const secret = await dialog.getByLabel('Secret', { exact: true }).inputValue();
    expect(secret).toMatch(/^[a-z2-7]{48}$/);
    expect(await dialog.getByLabel('Username', { exact: true }).inputValue()).toBe(serial);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Rotate secret' }).waitFor();

    const login = { serial, secret };
    await waitUntil('the gateway signs in with its secret', async () => {
      try {
        await publishUplink(ctx, serial, 'heartbeat', {}, login);
        return true;
      } catch {
        return false;
      }
    });
    await waitUntil('the gateway is heard', async () => {
      const seen = await api.get<ApiGateway>(`proxy/gateways/${gateway._id}`);
      return seen.lastseen !== null;
    });

    await page.getByRole('button', { name: /^Revoke the secret created/ }).click();
    await page.getByRole('dialog', { name: 'Revoke this credential?' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('table', { name: 'MQTT credentials' }).getByText('Revoked').waitFor();
    await waitUntil('the broker refuses the revoked secret', async () => {
      try {
        await publishUplink(ctx, serial, 'heartbeat', {}, login);
        return false;
      } catch {
        return true;
      }
    });
  });
});
