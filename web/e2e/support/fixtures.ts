// Devices of the simulated network that the tests act on, read from the API.
import type { Api, ApiGateway, ApiMeter } from './api.ts';
import { waitUntil } from './processes.ts';

/** A meter that a gateway has heard, with that gateway. */
export async function heardMeter(api: Api): Promise<{ meter: ApiMeter; gateway: ApiGateway }> {
  let found: { meter: ApiMeter; gateway: ApiGateway } | undefined;
  await waitUntil('a meter heard by a gateway', async () => {
    const meters = await api.get<ApiMeter[]>('proxy/wmeters?max=100');
    const meter = meters.find((m) => m.lastGatewayId && m.lastseen);
    if (!meter?.lastGatewayId) return false;
    found = { meter, gateway: await api.get<ApiGateway>(`proxy/gateways/${meter.lastGatewayId}`) };
    return true;
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
