// Administration (docs/administration.md, In the dashboard): an admin
// creates an operator and reads their one-time password once; the operator
// signs in in a browser of their own, must change it before anything else,
// then uses the dashboard; the admin disables them, and the operator's open
// dashboard is signed out on its next request; the audit trail shows these
// changes, filtered by action, and downloads them as CSV.
import { readFile } from 'node:fs/promises';

import { afterAll, describe, expect, it } from 'vitest';

import { openBrowser, type Session } from './support/browser.ts';
import { browserSuite } from './support/suite.ts';

interface ApiUser {
  id: string;
  username: string;
  role: string;
  disabled: boolean;
  mustChangePassword: boolean;
}

describe('administering users', () => {
  const suite = browserSuite();
  const username = `e2e-operator-${String(Date.now())}`;
  const ownPassword = 'e2e-operator-own-secret';
  let oneTimePassword = '';
  let operator: Session | undefined;
  const operatorPage = () => {
    if (!operator) throw new Error("the operator's browser is read before it was opened");
    return operator.page;
  };
  const stored = async () => {
    const { items } = await suite.api.get<{ items: ApiUser[] }>(`admin/users?q=${encodeURIComponent(username)}`);
    return items.find((user) => user.username === username);
  };

  afterAll(async () => {
    await operator?.close();
  });

  it('an admin creates an operator from the menu and reads the one-time password once', async () => {
    const { page } = suite;
    await page.goto('/');
    await page.getByRole('navigation').getByRole('link', { name: 'Users', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/admin/users');
    await page.getByRole('table', { name: 'Users' }).waitFor();

    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await dialog.getByLabel(/^Username/).fill(username);
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Operator', exact: true }).click();
    if (!(await dialog.getByRole('radio', { name: 'Generate a one-time password' }).isChecked())) {
      throw new Error('a one-time password is not the default');
    }
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();

    const shown = page.getByRole('dialog', { name: `One-time password for ${username}` });
    oneTimePassword = await shown.getByLabel('One-time password').inputValue();
    expect(oneTimePassword).toHaveLength(16);
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'hidden' });
    expect(await page.getByLabel('One-time password').count()).toBe(0);

    const row = page.getByTestId(`user-${username}`);
    await row.getByText('Active').waitFor();
    expect(await row.getByRole('combobox', { name: `Role of ${username}` }).textContent()).toBe('Operator');
    expect(await stored()).toMatchObject({ role: 'operator', disabled: false, mustChangePassword: true });
  });

  it('the operator signs in, must change the password before anything else, then uses the dashboard', async () => {
    operator = await openBrowser(suite.ctx.base);
    const page = operatorPage();
    await page.goto('/login');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(oneTimePassword);
    await page.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL((url) => url.pathname === '/change-password');
    await page.getByRole('heading', { level: 1, name: 'Change your password' }).waitFor();
    await page.getByText(/can be used only once/).waitFor();

    // Nothing else may be used meanwhile.
    await page.goto('/gateways');
    await page.waitForURL((url) => url.pathname === '/change-password');
    await page.getByRole('heading', { level: 1, name: 'Change your password' }).waitFor();

    await page.getByLabel(/^Current password/).fill(oneTimePassword);
    await page.getByLabel(/^New password/).fill(ownPassword);
    await page.getByLabel(/^Confirm the new password/).fill(ownPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByTestId('username').filter({ hasText: username }).waitFor();
    expect(await stored()).toMatchObject({ mustChangePassword: false });

    const navigation = page.getByRole('navigation');
    await navigation.getByRole('link', { name: 'Gateways', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: /^Gateways/ }).waitFor();
    await navigation.getByRole('link', { name: 'Gateway Registration' }).waitFor();
    expect(await navigation.getByRole('link', { name: 'Users', exact: true }).count()).toBe(0);
  });

  it('the admin disables the operator, whose open dashboard is signed out on its next request', async () => {
    const { page } = suite;
    await page.goto('/admin/users');
    await page.getByRole('searchbox', { name: 'Search users' }).fill(username);
    const row = page.getByTestId(`user-${username}`);
    await row.getByRole('button', { name: `Disable ${username}` }).click();
    const confirm = page.getByRole('dialog', { name: `Disable ${username}?` });
    await confirm.getByRole('button', { name: 'Disable', exact: true }).click();
    await page.getByText(`${username} was disabled`).waitFor();
    await row.getByText('Disabled').waitFor();
    expect(await stored()).toMatchObject({ disabled: true });

    const operatorTab = operatorPage();
    // Its next request is this page's, unless the shell's uptime poll (every
    // 5 s) came first and the dashboard is already back at the sign-in.
    await operatorTab
      .getByRole('navigation')
      .getByRole('link', { name: 'Water Meters', exact: true })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    await operatorTab.waitForURL((url) => url.pathname === '/login');
    await operatorTab.getByRole('button', { name: 'Login' }).waitFor();
    expect(await operatorTab.evaluate(() => localStorage.getItem('token'))).toBeNull();

    // A disabled user cannot sign in again, even with their own password.
    await operatorTab.getByLabel('Username').fill(username);
    await operatorTab.getByLabel('Password', { exact: true }).fill(ownPassword);
    await operatorTab.getByRole('button', { name: 'Login' }).click();
    await operatorTab.getByText('Invalid credentials').waitFor();
  });

  it("the admin reads the operator's changes in the audit trail, filtered by action, and downloads them as CSV", async () => {
    const { page } = suite;
    const user = await stored();
    if (!user) throw new Error(`${username} is not stored`);
    await page.goto('/');
    await page.getByRole('navigation').getByRole('link', { name: 'Audit trail', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/admin/audit');
    const grid = page.getByRole('grid', { name: 'Audit entries' });
    await grid.waitFor();

    await page.getByRole('combobox', { name: /^Action/ }).fill('user');
    // The suggestions close; the text stays.
    await page.keyboard.press('Escape');
    await page.waitForURL((url) => url.searchParams.get('action') === 'user');
    // The page shown is the filter's once every action on it is a user's.
    await page.waitForFunction(() => {
      const actions = [...document.querySelectorAll('[role="gridcell"][data-field="action"]')].map((cell) => cell.textContent);
      return actions.length > 0 && actions.every((action) => action.startsWith('user.'));
    });
    const created = grid.getByRole('row').filter({ hasText: 'user.create' }).filter({ hasText: user.id });
    await created.waitFor();
    // The operator's own password change names them as its actor.
    await grid.getByRole('row').filter({ hasText: 'user.password_change' }).filter({ hasText: username }).first().waitFor();

    await created.getByText('user.create', { exact: true }).click();
    const entry = page.getByRole('dialog', { name: /^user\.create, / });
    await entry.getByText(`"username": "${username}"`).waitFor();
    await entry.getByRole('button', { name: 'Close' }).click();
    await entry.waitFor({ state: 'hidden' });

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}Z\.csv$/);
    const lines = (await readFile(await file.path(), 'utf8')).split('\r\n').filter((line) => line !== '');
    expect(lines[0]).toBe('at,actor,username,role,source_ip,action,target,outcome,detail,before,after');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((line) => /,user\.[a-z_]+,/.test(line))).toBe(true);
    expect(lines.some((line) => line.includes(`,user.create,${user.id},ok,`))).toBe(true);
  });
});
