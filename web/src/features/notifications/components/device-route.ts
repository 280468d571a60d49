// Where a notification leads (spec §4): its meter's page, or its gateway's.
import { GATEWAY_PREFIX } from '../../../lib/constants.ts';
import type { Notification } from '../../../lib/types.ts';

export function deviceRoute(n: Notification): string {
  const gateway = n.deviceKind ? n.deviceKind === 'gateway' : n.deviceName.startsWith(GATEWAY_PREFIX);
  // Detail pages accept an id or a prefixed serial, so the name will do without an id.
  const target = encodeURIComponent(n.deviceId ?? n.deviceName);
  return gateway ? `/gateways/${target}` : `/water-meters/${target}`;
}
