import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { openBrowser, signIn, type Session } from './support/browser.ts';

const ctx = inject('wmeter');

describe('signing in and the language', () => {
  let s: Session;
  beforeAll(async () => {
    s = await openBrowser(ctx.base);
  });
  afterAll(async () => {
    await s.close();
  });

  it('sends a signed-out visitor to /login', async () => {
    await s.page.goto('/gateways');
    await s.page.waitForURL('**/login');
    await s.page.getByRole('button', { name: 'Login' }).waitFor();
  });

  it("shows 'Invalid credentials' for a bad password", async () => {
    await s.page.goto('/login');
    await s.page.getByLabel('Username').fill(ctx.admin.username);
    await s.page.getByLabel('Password', { exact: true }).fill('not the password');
    await s.page.getByRole('button', { name: 'Login' }).click();
    await s.page.getByText('Invalid credentials').waitFor();
    expect(new URL(s.page.url()).pathname).toBe('/login');
  });

  it('signs in, shows the user, and keeps the session across a reload', async () => {
    await signIn(s.page, ctx.admin);
    await s.page.getByTestId('username').filter({ hasText: ctx.admin.username }).waitFor();
    await s.page.reload();
    await s.page.getByTestId('username').filter({ hasText: ctx.admin.username }).waitFor();
    expect(await s.page.evaluate(() => localStorage.getItem('role'))).toBe('admin');
  });

  it('switches to French and back, reloading the page each time', async () => {
    await s.page.goto('/');
    await s.page.getByRole('button', { name: 'Switch language to French' }).click();
    await s.page.getByText('© 2025 w-meter. Tous droits réservés.').waitFor();
    await s.page.getByRole('navigation').getByRole('link', { name: 'Passerelles perdues' }).waitFor();
    expect(await s.page.evaluate(() => document.documentElement.lang)).toBe('fr');

    await s.page.getByRole('button', { name: 'Passer en anglais' }).click();
    await s.page.getByText('© 2025 w-meter. All rights reserved.').waitFor();
  });

  it('logs out and forgets the session', async () => {
    await s.page.getByRole('button', { name: 'Logout' }).click();
    await s.page.waitForURL('**/login');
    expect(await s.page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await s.page.goto('/');
    await s.page.waitForURL('**/login');
  });
});
