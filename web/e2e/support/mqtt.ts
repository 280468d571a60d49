// Publishes one uplink as a gateway, with Debian's mosquitto_pub.
import { run } from './processes.ts';
import type { WmeterContext } from './context.ts';

// Far above the simulator's counters, so the (gateway, messageId) pair is new.
let nextMessageId = 1_000_000_000 + Math.floor(Math.random() * 1_000_000);

export async function publishUplink(
  ctx: WmeterContext,
  gatewaySerial: string,
  kind: string,
  payload: Record<string, unknown>,
): Promise<void> {
  const body = { messageId: nextMessageId++, timestamp: new Date().toISOString(), ...payload };
  await run(
    process.env.WM_E2E_MOSQUITTO_PUB ?? 'mosquitto_pub',
    [
      '-h', '127.0.0.1',
      '-p', String(ctx.mqtt.port),
      '-u', ctx.mqtt.username,
      '-P', ctx.mqtt.password,
      '-i', `e2e-${gatewaySerial}-${String(body.messageId)}`,
      '-q', '1',
      '-t', `wmeter/v1/gw/${gatewaySerial}/${kind}`,
      '-m', JSON.stringify(body),
    ],
    process.env,
  );
}
