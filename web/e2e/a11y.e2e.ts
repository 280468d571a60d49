// Every route: axe-core finds no serious or critical violation, and a
// screenshot is kept at desktop and phone size (web/e2e/artifacts/); the
// admin screens and the overview are checked in dark mode too (contrast
// included), as a device set to dark shows them.
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { Api } from './support/api.ts';
import { DESKTOP, PHONE, screenshot, signIn } from './support/browser.ts';
import type { WmeterContext } from './support/context.ts';
import { heardMeter, raisedAlarm } from './support/fixtures.ts';
import { browserSuite } from './support/suite.ts';

async function routes(api: Api, ctx: WmeterContext): Promise<[name: string, path: string][]> {
  const { meter, gateway } = await heardMeter(api);
  const alarm = await raisedAlarm(api, ctx, meter, gateway);
  return [
    ['overview', '/'],
    ['gateways', '/gateways'],
    ['gateway-detail', `/gateways/${gateway._id}`],
    ['lost-gateways', '/lost-gateways'],
    ['water-meters', '/water-meters'],
    ['water-meter-detail', `/water-meters/${meter._id}`],
    ['lost-water-meters', '/lost-water-meters'],
    ['down-water-meters', '/down-water-meters'],
    ['criticals', '/criticals'],
    ['alarms', '/alarms'],
    ['alarm-panel', `/alarms?alarm=${alarm.id}`],
    ['map', '/map'],
    ['gateway-registration', '/gateway-registration'],
    ['water-meter-registration', '/water-meter-registration'],
    ['search', '/search'],
    ['alarm-rules', '/admin/rules'],
    ['users', '/admin/users'],
    ['audit', '/admin/audit'],
    ['api-keys', '/admin/api-keys'],
    ['profile', '/profile'],
  ];
}

async function serious(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
  describe(`every route at ${size} size`, () => {
    const suite = browserSuite({ as: null, viewport });

    it('the login screen has no serious accessibility violation', async () => {
      await suite.page.goto('/login');
      await suite.page.getByRole('button', { name: 'Login' }).waitFor();
      await screenshot(suite.page, `login-${size}`);
      expect(await serious(suite.page)).toEqual([]);
    });

    it('every signed-in route has none either', async () => {
      await signIn(suite.page, suite.ctx.admin);
      const found: string[] = [];
      for (const [name, path] of await routes(suite.api, suite.ctx)) {
        await suite.page.goto(path);
        // A page's title; with a side panel open, the panel's (the page behind is inert).
        await suite.page.getByRole('heading', { level: path.includes('alarm=') ? 2 : 1 }).first().waitFor();
        // The stream and the uptime poll keep the network busy: wait for the
        // spinners and the placeholders of lazy tables to go instead.
        await suite.page
          .waitForFunction(() => document.querySelectorAll('[role="progressbar"], .MuiSkeleton-root').length === 0, undefined, {
            timeout: 15_000,
          })
          .catch(() => undefined);
        await screenshot(suite.page, `${name}-${size}`);
        found.push(...(await serious(suite.page)).map((v) => `${path}: ${v}`));
      }
      expect(found).toEqual([]);
    }, 180_000); // every route, each given up to 15 s for its spinners to go
  });
}

describe('the dark theme', () => {
  const suite = browserSuite();

  it('follows a device set to dark, and is legible on the admin screens', async () => {
    await suite.page.emulateMedia({ colorScheme: 'dark' });
    const found: string[] = [];
    for (const [name, path] of [
      ['overview', '/'],
      ['alarm-rules', '/admin/rules'],
      ['users', '/admin/users'],
      ['audit', '/admin/audit'],
      ['api-keys', '/admin/api-keys'],
      ['profile', '/profile'],
    ] as const) {
      await suite.page.goto(path);
      await suite.page.getByRole('heading', { level: 1 }).first().waitFor();
      await suite.page
        .waitForFunction(() => document.querySelectorAll('[role="progressbar"], .MuiSkeleton-root').length === 0, undefined, {
          timeout: 15_000,
        })
        .catch(() => undefined);
      const background = await suite.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background, `${path} is dark`).toMatch(/^rgb\((\d{1,2}), (\d{1,2}), (\d{1,2})\)$/);
      await screenshot(suite.page, `${name}-dark`);
      found.push(...(await serious(suite.page)).map((v) => `${path}: ${v}`));
    }
    expect(found).toEqual([]);
  });
});
