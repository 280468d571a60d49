// Devices of the simulated network that the tests act on, read from the API.
import type { Api, ApiGateway, ApiMeter } from './api.ts';
import { SIM, type WmeterContext } from './context.ts';
import { publishUplink } from './mqtt.ts';
import { waitUntil } from './processes.ts';

/**
 * A meter that a gateway of the simulator running all along has heard, with
 * that gateway: one a test's own short simulator heard would not answer a
 * valve command once that simulator stopped.
 */
export async function heardMeter(api: Api): Promise<{ meter: ApiMeter; gateway: ApiGateway }> {
  let found: { meter: ApiMeter; gateway: ApiGateway } | undefined;
  await waitUntil('a meter heard by a gateway', async () => {
    const meters = await api.get<ApiMeter[]>('proxy/wmeters?max=100');
    for (const meter of meters.filter((m) => m.lastGatewayId && m.lastseen)) {
      const gateway = await api.get<ApiGateway>(`proxy/gateways/${meter.lastGatewayId ?? ''}`);
      if (gateway.serialNumber.startsWith(SIM.serialPrefix)) {
        found = { meter, gateway };
        return true;
      }
    }
    return false;
  });
  if (!found) throw new Error('unreachable');
  return found;
}

export async function anyGateway(api: Api): Promise<ApiGateway> {
  const [gateway] = await api.get<ApiGateway[]>('proxy/gateways?max=1');
  if (!gateway) throw new Error('no gateway registered');
  return gateway;
}

const pick = (alphabet: string, length: number) =>
  Array.from({ length }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');

/** Identifiers no simulated device has. */
export const unique = {
  serial: () => `E2E${pick('ABCDEFGHJKLMNPQRSTUVWXYZ0123456789', 7)}`,
  digits: (length: number) => pick('0123456789', length),
  address: () => Array.from({ length: 6 }, () => pick('0123456789ABCDEF', 2)).join(':'),
};

export interface ApiAlarm {
  id: string;
  type: string;
}

/** An alarm a gateway raised over MQTT on `meter`, of a type no other alarm has. */
export async function raisedAlarm(api: Api, ctx: WmeterContext, meter: ApiMeter, gateway: ApiGateway, prefix = 'e2e'): Promise<ApiAlarm> {
  const type = `${prefix}-${String(Date.now())}`;
  await publishUplink(ctx, gateway.serialNumber, 'alert', { meter: meter.bleAddress, type, state: 'raised' });
  let alarm: ApiAlarm | undefined;
  await waitUntil(`the ${type} alarm`, async () => {
    alarm = (await api.get<{ items: ApiAlarm[] }>(`alarms?type=${type}`)).items[0];
    return alarm !== undefined;
  });
  if (!alarm) throw new Error('unreachable');
  return alarm;
}
