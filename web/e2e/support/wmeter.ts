// The `wmeter` binary the e2e run drives, and its simulator run against the
// server under test.
import { resolve } from 'node:path';

import type { WmeterContext } from './context.ts';
import { run } from './processes.ts';

export const WMETER = process.env.WM_E2E_WMETER ?? resolve(import.meta.dirname, '../../../target/debug/wmeter');

/**
 * Runs `wmeter simulate --register` with `args` against the server under
 * test, signed in as its admin, on its embedded broker; resolves with what
 * it printed once it ends (give it a `--duration`).
 */
export function simulate(ctx: WmeterContext, args: string[]): Promise<string> {
  const broker = `mqtt://127.0.0.1:${String(ctx.mqtt.port)}`;
  return run(
    WMETER,
    ['simulate', '--register', '--api', ctx.base, '--username', ctx.admin.username, '--broker', broker, ...args],
    { ...process.env, WMETER_SIM_PASSWORD: ctx.admin.password, WMETER_MQTT__GATEWAY_PASSWORD: ctx.mqtt.password },
  );
}
