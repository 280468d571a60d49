// Integrations (docs/integrations.md, docs/administration.md): an admin
// makes a webhook rule in the dashboard, and an alarm raised over MQTT
// reaches a real receiver, signed, and shows in the rule's delivery log;
// an admin makes an API key, which a program uses until it is revoked.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

import { afterAll, describe, expect, it } from 'vitest';

import { heardMeter } from './support/fixtures.ts';
import { publishUplink } from './support/mqtt.ts';
import { waitUntil } from './support/processes.ts';
import { browserSuite } from './support/suite.ts';

interface Hook {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that keeps what it gets and answers 200. */
async function receiver(): Promise<{ url: string; received: Hook[]; server: Server }> {
  const received: Hook[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${String(port)}/hooks/wmeter`, received, server };
}

describe('alarm rules', () => {
  const suite = browserSuite();
  let server: Server | undefined;

  afterAll(() => {
    server?.close();
  });

  it('sends an alarm raised over MQTT to the webhook of a rule made in the dashboard', async () => {
    const hook = await receiver();
    server = hook.server;
    const { page } = suite;
    const name = `e2e-rule-${String(Date.now())}`;
    const type = `${name}-leak`;
    const secret = 'e2e-webhook-secret-0123456789';

    await page.goto('/admin/rules');
    await page.getByRole('button', { name: 'New rule' }).click();
    const dialog = page.getByRole('dialog', { name: 'New alarm rule' });
    // Required fields' labels end with their asterisk.
    await dialog.getByLabel(/^Name/).fill(name);
    await dialog.getByLabel(/^Alarm types/).fill(type);
    await page.keyboard.press('Enter');
    await dialog.getByLabel('Webhook', { exact: true }).check();
    await dialog.getByLabel(/^Webhook URL/).fill(hook.url);
    await dialog.getByLabel(/^Secret/).fill(secret);
    await dialog.getByLabel(/^Group window/).fill('0');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText(`The rule ${name} was created`).waitFor();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText(hook.url).waitFor();

    const { meter, gateway } = await heardMeter(suite.api);
    await publishUplink(suite.ctx, gateway.serialNumber, 'alert', { meter: meter.bleAddress, type, state: 'raised' });
    await waitUntil('the webhook', () => Promise.resolve(hook.received.length > 0), 30_000);

    const first = hook.received[0];
    if (!first) throw new Error('no webhook was received');
    const { headers, body } = first;
    const timestamp = String(headers['x-wmeter-timestamp']);
    const expected = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    expect(headers['x-wmeter-signature']).toBe(`sha256=${expected}`);
    const sent = JSON.parse(body) as { rule: { name: string }; alarms: { type: string; deviceId: string }[] };
    expect(sent.rule.name).toBe(name);
    expect(sent.alarms.map((a) => [a.type, a.deviceId])).toEqual([[type, meter._id]]);

    await row.getByRole('button', { name: `Deliveries of ${name}` }).click();
    const log = page.getByRole('dialog', { name: `Deliveries of ${name}` });
    await log.getByText('Delivered').waitFor();
  });
});

describe('API keys', () => {
  const suite = browserSuite();

  it('are made in the dashboard, used by a program, and revoked', async () => {
    const { page } = suite;
    const name = `e2e-billing-${String(Date.now())}`;
    await page.goto('/admin/api-keys');
    await page.getByRole('button', { name: 'New API key' }).click();
    const dialog = page.getByRole('dialog', { name: 'New API key' });
    await dialog.getByLabel(/^Name/).fill(name);
    await dialog.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByRole('dialog', { name: `API key ${name}` });
    const key = await shown.getByLabel('API key').inputValue();
    expect(key).toMatch(/^wmk_[a-z2-7]{8}_[a-z2-7]{40}$/);
    await shown.getByRole('button', { name: 'Done' }).click();

    const call = () => fetch(`${suite.ctx.base}/api/proxy/wmeters/count`, { headers: { authorization: `Bearer ${key}` } });
    await waitUntil('the key to be taken', async () => (await call()).status === 200);
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByText('Active').waitFor();

    await row.getByRole('button', { name: `Revoke ${name}` }).click();
    await page.getByRole('dialog', { name: `Revoke the API key ${name}?` }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText(`The API key ${name} was revoked`).waitFor();
    await row.getByText('Revoked').waitFor();
    const refused = await call();
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { message: string }).message).toBe('The API key was revoked');
  });
});
