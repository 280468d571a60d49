import { describe, expect, it } from 'vitest';

import { signIn } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';

describe('signing in and the language', () => {
  const suite = browserSuite({ as: null });
  const { ctx } = suite;

  it('sends a signed-out visitor to /login', async () => {
    await suite.page.goto('/gateways');
    await suite.page.waitForURL('**/login');
    await suite.page.getByRole('button', { name: 'Login' }).waitFor();
  });

  it("shows 'Invalid credentials' for a bad password", async () => {
    await suite.page.goto('/login');
    await suite.page.getByLabel('Username').fill(ctx.admin.username);
    await suite.page.getByLabel('Password', { exact: true }).fill('not the password');
    await suite.page.getByRole('button', { name: 'Login' }).click();
    await suite.page.getByText('Invalid credentials').waitFor();
    expect(new URL(suite.page.url()).pathname).toBe('/login');
  });

  it('signs in, shows the user, and keeps the session across a reload', async () => {
    await signIn(suite.page, ctx.admin);
    await suite.page.getByTestId('username').filter({ hasText: ctx.admin.username }).waitFor();
    await suite.page.reload();
    await suite.page.getByTestId('username').filter({ hasText: ctx.admin.username }).waitFor();
    expect(await suite.page.evaluate(() => localStorage.getItem('role'))).toBe('admin');
  });

  it("shows 'Unexpected Application Error!' at an unknown path, and its link leads back", async () => {
    await suite.page.goto('/no-such-screen');
    await suite.page.getByRole('heading', { name: 'Unexpected Application Error!' }).waitFor();
    await suite.page.getByText('404 Not Found').waitFor();
    await suite.page.getByRole('link', { name: 'Back to the overview' }).click();
    await suite.page.waitForURL((url) => url.pathname === '/');
    await suite.page.getByTestId('username').filter({ hasText: ctx.admin.username }).waitFor();
  });

  it('switches to French and back, reloading the page each time', async () => {
    await suite.page.goto('/');
    await suite.page.getByRole('button', { name: 'Switch language to French' }).click();
    await suite.page.getByText('© 2025 w-meter. Tous droits réservés.').waitFor();
    await suite.page.getByRole('navigation').getByRole('link', { name: 'Passerelles perdues' }).waitFor();
    expect(await suite.page.evaluate(() => document.documentElement.lang)).toBe('fr');

    await suite.page.getByRole('button', { name: 'Passer en anglais' }).click();
    await suite.page.getByText('© 2025 w-meter. All rights reserved.').waitFor();
  });

  it('logs out and forgets the session', async () => {
    await suite.page.getByRole('button', { name: 'Logout' }).click();
    await suite.page.waitForURL('**/login');
    expect(await suite.page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await suite.page.goto('/');
    await suite.page.waitForURL('**/login');
  });
});
