// A gateway's card in the lists (spec §2): name (GTW-serial fallback), online
// dot, IMEI, BLE address, last seen and water meters; a lost gateway's card
// has a gray dot and only the name, BLE address and last seen.
import { useTranslation } from 'react-i18next';

import { DeviceCard, type CardLine } from '../../../components/paged-list/device-card.tsx';
import { gatewayDot } from '../../../components/status-dot.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { gatewayName, idOf } from '../../../lib/format.ts';
import type { Gateway } from '../../../lib/types.ts';

export function GatewayCard({ gateway, lost = false }: { gateway: Gateway; lost?: boolean }) {
  const { t } = useTranslation('gateways');
  const { t: tc } = useTranslation();
  const timestamp = useTimestamp();
  const bleAddress = { label: tc('list.bleAddress'), value: gateway.bleAddress };
  const lastSeen = { label: tc('list.lastSeen'), value: timestamp(gateway.lastseen) };
  const lines: CardLine[] = lost
    ? [bleAddress, lastSeen]
    : [
        { label: t('fields.imei'), value: gateway.imei },
        bleAddress,
        lastSeen,
        { label: t('fields.waterMeters'), value: gateway.waterMetersCount },
      ];
  const online = !lost && gateway.isOnline;
  return (
    <DeviceCard
      to={`/gateways/${idOf(gateway._id)}`}
      name={gatewayName(gateway)}
      dot={lost ? 'gray' : gatewayDot(gateway)}
      dotLabel={lost ? t('lost.dot') : tc(online ? 'status.online' : 'status.offline')}
      lines={lines}
    />
  );
}
