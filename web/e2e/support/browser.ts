// Debian's Chromium through playwright-core, with the flags this machine needs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { ARTIFACTS, type Login } from './context.ts';

const EXECUTABLE = process.env.WM_E2E_CHROMIUM ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(existsSync);

export const DESKTOP = { width: 1440, height: 900 };
export const PHONE = { width: 390, height: 844 };

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Browser dialogs (alert, confirm) that opened; XSS would show here. */
  dialogs: string[];
  /** What the Content-Security-Policy refused: `close` fails when any. */
  cspViolations: string[];
  close: () => Promise<void>;
}

/** A fresh browser with its own profile, at `base`, one page open. */
export async function openBrowser(base: string, viewport = DESKTOP): Promise<Session> {
  if (!EXECUTABLE) throw new Error('Chromium is missing: run deploy/dev/chromium.sh install');
  const profile = mkdtempSync(join(tmpdir(), 'wmeter-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: EXECUTABLE,
    headless: true,
    baseURL: base,
    viewport,
    locale: 'en-GB',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const dialogs: string[] = [];
  context.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const cspViolations: string[] = [];
  context.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
  });
  return {
    context,
    page,
    dialogs,
    cspViolations,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
      if (cspViolations.length > 0) {
        throw new Error(`the Content-Security-Policy refused something:\n${cspViolations.join('\n')}`);
      }
    },
  };
}

export async function signIn(page: Page, login: Login): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(login.username);
  await page.getByLabel('Password', { exact: true }).fill(login.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}
