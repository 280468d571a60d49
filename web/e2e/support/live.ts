// Live pages (DESIGN §11): a change shows on an open page within LIVE_MS, with
// no reload. `markPage` leaves a mark in the page that a reload would erase;
// `expectNotReloaded` fails the test when it is gone.
import type { Page } from 'playwright-core';

/** The bound: a change shows on an open page within 2 s. */
export const LIVE_MS = 2_000;

export async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => { (window as unknown as Record<string, unknown>).e2eMarker = true; });
}

export async function expectNotReloaded(page: Page): Promise<void> {
  const kept = await page.evaluate(() => (window as unknown as Record<string, unknown>).e2eMarker === true);
  if (!kept) throw new Error('the page was reloaded');
}
