// Leak detection (docs/analytics.md): the simulator's leak scenario uploads
// a day and more of flow in every hour, as a gateway back from an outage
// would; the detector raises continuous-flow, which shows on /alarms and on
// the meter page with its evidence.
import { describe, it } from 'vitest';

import { waitUntil } from './support/processes.ts';
import { browserSuite } from './support/suite.ts';
import { simulate } from './support/wmeter.ts';

interface DerivedAlarm {
  id: string;
  deviceId: string;
  deviceName: string;
}

/** The meter the leak scenario of a one-meter fleet with seed 11 leaks on. */
const LEAKING = 'W-SM0B000000';
const EVIDENCE = /^Flow in every hour from .+ to .+ \(24 hours\): [\d,.]+ (L|m³), at least [\d,.]+ L an hour; threshold 24 hours$/;

describe('leak detection', () => {
  const suite = browserSuite();

  it("raises continuous-flow from the simulator's leak scenario, with its evidence on /alarms and the meter page", async () => {
    await simulate(suite.ctx, ['--gateways', '1', '--meters', '1', '--seed', '11', '--scenario', 'leak', '--rate', '2', '--duration', '4']);
    let alarm: DerivedAlarm | undefined;
    await waitUntil('the continuous-flow alarm', async () => {
      const page = await suite.api.get<{ items: DerivedAlarm[] }>('alarms?type=continuous-flow');
      alarm = page.items.find((a) => a.deviceName === LEAKING);
      return alarm !== undefined;
    });
    if (!alarm) throw new Error('unreachable');

    const { page } = suite;
    await page.goto('/alarms?type=continuous-flow');
    const row = page.getByRole('grid', { name: 'Alarms' }).getByRole('row').filter({ hasText: LEAKING });
    await row.getByText('Continuous flow').click();
    const panel = page.getByRole('dialog');
    await panel.getByRole('heading', { name: 'Continuous flow' }).waitFor();
    await panel.getByText(EVIDENCE).waitFor();
    await panel.getByText(/ by w-meter$/).first().waitFor();

    await page.goto(`/water-meters/${alarm.deviceId}`);
    await page.getByText(EVIDENCE).first().waitFor();
  });
});
