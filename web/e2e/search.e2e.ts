import { afterAll, beforeAll, describe, inject, it } from 'vitest';

import { Api } from './support/api.ts';
import { openBrowser, signIn, type Session } from './support/browser.ts';
import { anyGateway } from './support/fixtures.ts';

const ctx = inject('wmeter');

describe('search', () => {
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

  it('finds a gateway by serial with a chosen radius', async () => {
    const gateway = await anyGateway(api);
    await s.page.getByRole('combobox', { name: 'Radius' }).click();
    await s.page.getByRole('option', { name: '50m', exact: true }).click();
    await s.page.getByLabel('Search devices').fill(gateway.serialNumber);
    await s.page.getByLabel('Search devices').press('Enter');
    await s.page.waitForURL('**/search');
    await s.page.getByRole('heading', { name: 'Search Results' }).waitFor();
    await s.page.getByText(`GTW-${gateway.serialNumber}`).first().click();
    await s.page.waitForURL(`**/gateways/${gateway._id}`);
  });

  it('says so when nothing matches', async () => {
    await s.page.getByLabel('Search devices').fill('no-such-device-anywhere');
    await s.page.getByLabel('Search devices').press('Enter');
    await s.page.getByText('No matching devices found').waitFor();
    await s.page.getByText('Please check your search term or adjust the radius.').waitFor();
  });
});
