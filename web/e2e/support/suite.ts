// The browser (and API client) of a describe block: registers the hooks that
// open them before its tests and close them after. The fields are read in the
// tests, once the hooks have run.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';

import { Api } from './api.ts';
import { DESKTOP, openBrowser, signIn, type Session } from './browser.ts';
import type { WmeterContext } from './context.ts';

export interface Suite {
  readonly ctx: WmeterContext;
  readonly page: Page;
  /** Browser dialogs (alert, confirm) that opened; XSS would show here. */
  readonly dialogs: string[];
  /** The API as the admin, to compare what the dashboard shows with the server. */
  readonly api: Api;
}

interface Options {
  /** Who the browser is signed in as before the tests; `null` leaves it signed out. */
  as?: 'admin' | 'viewer' | null;
  viewport?: { width: number; height: number };
}

export function browserSuite({ as = 'admin', viewport = DESKTOP }: Options = {}): Suite {
  const ctx = inject('wmeter');
  let session: Session | undefined;
  let api: Api | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the suite is read before its beforeAll ran');
    return value;
  };

  beforeAll(async () => {
    api = await Api.signIn(ctx.base, ctx.admin);
    session = await openBrowser(ctx.base, viewport);
    if (as) await signIn(session.page, ctx[as]);
  });
  afterAll(async () => {
    await session?.close();
  });

  return {
    ctx,
    get page() {
      return ready(session).page;
    },
    get dialogs() {
      return ready(session).dialogs;
    },
    get api() {
      return ready(api);
    },
  };
}
