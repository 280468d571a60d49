// One search result (spec §2, Search Results): a gateway when it has an imei,
// otherwise a water meter. Device strings are rendered as text only.
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { DeviceCard, type CardLine } from '../../../components/paged-list/device-card.tsx';
import { gatewayDot, meterDot, type DotColour } from '../../../components/status-dot.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { gatewayName, idOf, meterName } from '../../../lib/format.ts';
import { isGateway, type Device } from '../../../lib/types.ts';
import { useVolume } from '../../../lib/use-volume.ts';

const METER_STATUS = { red: 'status.critical', green: 'status.up', gray: 'status.inactive' } as const satisfies Record<
  DotColour,
  string
>;

function Kind({ text }: { text: string }) {
  return (
    <Typography variant="caption" component="p" color="text.secondary" sx={{ mt: 0.5, overflowWrap: 'anywhere' }}>
      {text}
    </Typography>
  );
}

export function SearchResultCard({ device }: { device: Device }) {
  const volume = useVolume();
  const { t } = useTranslation('search');
  const { t: tc } = useTranslation();
  const when = useTimestamp();
  const id = encodeURIComponent(idOf(device._id));
  const seen: CardLine[] = [
    { label: tc('list.bleAddress'), value: device.bleAddress },
    { label: tc('list.lastSeen'), value: when(device.lastseen) },
  ];

  if (isGateway(device)) {
    return (
      <DeviceCard
        to={`/gateways/${id}`}
        name={gatewayName(device)}
        dot={gatewayDot(device)}
        dotLabel={tc(device.isOnline ? 'status.online' : 'status.offline')}
        lines={[...seen, { label: t('results.waterMeters'), value: device.waterMetersCount }]}
      >
        <Kind text={t('results.gateway', { imei: device.imei })} />
      </DeviceCard>
    );
  }
  const dot = meterDot(device);
  return (
    <DeviceCard
      to={`/water-meters/${id}`}
      name={meterName(device)}
      dot={dot}
      dotLabel={tc(METER_STATUS[dot])}
      lines={[
        ...seen,
        { label: tc('list.consumption'), value: volume(device.totalConsumption) },
        { label: tc('list.critical'), value: tc(device.criticalState ? 'fallback.yes' : 'fallback.no') },
      ]}
    >
      <Kind text={t('results.meter')} />
    </DeviceCard>
  );
}
