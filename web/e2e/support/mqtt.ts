// Publishes one uplink as a gateway, with Debian's mosquitto_pub.
import { run } from './processes.ts';
import type { WmeterContext } from './context.ts';

/** A gateway's own MQTT login: its serial number as username and client id. */
export interface GatewayLogin {
  serial: string;
  secret: string;
}

// Far above the simulator's counters, so the (gateway, messageId) pair is new.
let nextMessageId = 1_000_000_000 + Math.floor(Math.random() * 1_000_000);

export async function publishUplink(
  ctx: WmeterContext,
  gatewaySerial: string,
  kind: string,
  payload: Record<string, unknown>,
  login?: GatewayLogin,
): Promise<void> {
  const body = { messageId: nextMessageId++, timestamp: new Date().toISOString(), ...payload };
  // Without its own login, the shared one (mqtt.gateway_password, which the
  // e2e server opts in to) with a client id of its own.
  const [username, password, clientId] = login
    ? [login.serial, login.secret, login.serial]
    : [ctx.mqtt.username, ctx.mqtt.password, `e2e-${gatewaySerial}-${String(body.messageId)}`];
  await run(
    process.env.WM_E2E_MOSQUITTO_PUB ?? 'mosquitto_pub',
    [
      '-h', '127.0.0.1',
      '-p', String(ctx.mqtt.port),
      '-u', username,
      '-P', password,
      '-i', clientId,
      '-q', '1',
      '-t', `wmeter/v1/gw/${gatewaySerial}/${kind}`,
      '-m', JSON.stringify(body),
    ],
    process.env,
  );
}
