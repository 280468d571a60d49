import { describe, it } from 'vitest';

import { anyGateway } from './support/fixtures.ts';
import { browserSuite } from './support/suite.ts';

describe('search', () => {
  const suite = browserSuite();

  it('finds a gateway by serial with a chosen radius', async () => {
    const gateway = await anyGateway(suite.api);
    await suite.page.getByRole('combobox', { name: 'Radius' }).click();
    await suite.page.getByRole('option', { name: '50m', exact: true }).click();
    await suite.page.getByLabel('Search devices').fill(gateway.serialNumber);
    await suite.page.getByLabel('Search devices').press('Enter');
    await suite.page.waitForURL('**/search');
    await suite.page.getByRole('heading', { name: 'Search Results' }).waitFor();
    await suite.page.getByText(`GTW-${gateway.serialNumber}`).first().click();
    await suite.page.waitForURL(`**/gateways/${gateway._id}`);
  });

  it('says so when nothing matches', async () => {
    await suite.page.getByLabel('Search devices').fill('no-such-device-anywhere');
    await suite.page.getByLabel('Search devices').press('Enter');
    await suite.page.getByText('No matching devices found').waitFor();
    await suite.page.getByText('Please check your search term or adjust the radius.').waitFor();
  });
});
