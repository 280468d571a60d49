// Every route: axe-core finds no serious or critical violation, and a
// screenshot is kept at desktop and phone size (web/e2e/artifacts/).
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { Api } from './support/api.ts';
import { DESKTOP, openBrowser, PHONE, screenshot, signIn, type Session } from './support/browser.ts';
import { heardMeter } from './support/fixtures.ts';

const ctx = inject('wmeter');

async function routes(api: Api): Promise<[name: string, path: string][]> {
  const { meter, gateway } = await heardMeter(api);
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
    ['gateway-registration', '/gateway-registration'],
    ['water-meter-registration', '/water-meter-registration'],
    ['search', '/search'],
  ];
}

async function serious(s: Session) {
  const results = await new AxeBuilder({ page: s.page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
  describe(`every route at ${size} size`, () => {
    let s: Session;
    let api: Api;
    beforeAll(async () => {
      api = await Api.signIn(ctx.base, ctx.admin);
      s = await openBrowser(ctx.base, viewport);
    });
    afterAll(async () => {
      await s.close();
    });

    it('the login screen has no serious accessibility violation', async () => {
      await s.page.goto('/login');
      await s.page.getByRole('button', { name: 'Login' }).waitFor();
      await screenshot(s.page, `login-${size}`);
      expect(await serious(s)).toEqual([]);
    });

    it('every signed-in route has none either', async () => {
      await signIn(s.page, ctx.admin);
      const found: string[] = [];
      for (const [name, path] of await routes(api)) {
        await s.page.goto(path);
        await s.page.getByRole('heading', { level: 1 }).first().waitFor();
        // The stream and the uptime poll keep the network busy: wait for the
        // spinners and the placeholders of lazy tables to go instead.
        await s.page
          .waitForFunction(() => document.querySelectorAll('[role="progressbar"], .MuiSkeleton-root').length === 0, undefined, {
            timeout: 15_000,
          })
          .catch(() => undefined);
        await screenshot(s.page, `${name}-${size}`);
        found.push(...(await serious(s)).map((v) => `${path}: ${v}`));
      }
      expect(found).toEqual([]);
    });
  });
}
