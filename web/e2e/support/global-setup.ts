// Starts one `wmeter serve` (embedded mode, its own SQLite file and MQTT port)
// with two users, and `wmeter simulate --register` feeding it. Tests read the
// addresses and logins with `inject('wmeter')`.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { TestProject } from 'vitest/node';

import { ARTIFACTS, SIM, type Login, type WmeterContext } from './context.ts';
import { freePort, run, start, stop, waitUntil } from './processes.ts';
import { WMETER as BINARY } from './wmeter.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    wmeter: WmeterContext;
  }
}

const DIST = resolve(import.meta.dirname, '../../dist');

const secret = () => randomBytes(12).toString('base64url');

async function apiToken(base: string, login: Login): Promise<string> {
  const response = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(login),
  });
  const body = (await response.json()) as { accessToken: string };
  return body.accessToken;
}

async function count(base: string, token: string, path: string): Promise<number> {
  const response = await fetch(`${base}/api/proxy/${path}`, { headers: { authorization: `Bearer ${token}` } });
  return ((await response.json()) as { count: number }).count;
}

export default async function setup(project: TestProject) {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`cargo build --bin wmeter\` first`);
  if (!existsSync(join(DIST, 'index.html'))) throw new Error(`${DIST} is missing: run \`npm run build\` first`);
  mkdirSync(ARTIFACTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'wmeter-e2e-'));
  const [httpPort, mqttPort] = [await freePort(), await freePort()];
  const admin: Login = { username: 'e2e-admin', password: secret() };
  const viewer: Login = { username: 'e2e-viewer', password: secret() };
  const gatewayPassword = secret();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    WMETER_HTTP__HOST: '127.0.0.1',
    WMETER_HTTP__PORT: String(httpPort),
    WMETER_DATABASE__URL: `sqlite://${dir}/wmeter.db`,
    WMETER_AUTH__KEY_FILE: `${dir}/jwt.key`,
    WMETER_DEVICES__CA_CERT_FILE: `${dir}/device-ca.crt`,
    WMETER_DEVICES__CA_KEY_FILE: `${dir}/device-ca.key`,
    WMETER_AUTH__SESSIONS__SECURE_COOKIE: 'false',
    WMETER_WEB__STATIC_DIR: DIST,
    WMETER_MQTT__LISTEN: `127.0.0.1:${String(mqttPort)}`,
    WMETER_MQTT__GATEWAY_PASSWORD: gatewayPassword,
    WMETER_LOG__FORMAT: 'json',
  };
  await run(BINARY, ['migrate'], env);
  await run(BINARY, ['user', 'add', '--username', admin.username, '--role', 'admin'], env, `${admin.password}\n`);
  await run(BINARY, ['user', 'add', '--username', viewer.username, '--role', 'viewer'], env, `${viewer.password}\n`);

  const base = `http://127.0.0.1:${String(httpPort)}`;
  const children: ChildProcess[] = [];
  const serve = start(BINARY, ['serve'], env, join(ARTIFACTS, 'wmeter-serve.log'));
  children.push(serve);
  await waitUntil('wmeter serve', async () => (await fetch(`${base}/healthz`)).ok);

  const simulate = start(
    BINARY,
    ['simulate', '--register', '--api', base, '--username', admin.username, ...SIM.args],
    { ...env, WMETER_SIM_PASSWORD: admin.password },
    join(ARTIFACTS, 'wmeter-simulate.log'),
  );
  children.push(simulate);
  const token = await apiToken(base, admin);
  await waitUntil('the simulated network', async () => {
    const [gateways, meters] = [await count(base, token, 'gateways/count'), await count(base, token, 'wmeters/count')];
    return gateways === SIM.gateways && meters === SIM.meters;
  });

  project.provide('wmeter', {
    base,
    admin,
    viewer,
    mqtt: { port: mqttPort, username: 'gateway', password: gatewayPassword },
  });

  return async () => {
    for (const child of children.reverse()) await stop(child);
    rmSync(dir, { recursive: true, force: true });
  };
}
