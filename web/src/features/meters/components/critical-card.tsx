// A card of the critical list (spec §2): red dot, name, BLE address, last seen
// (N/A if none), the raised alerts as 'type — status', consumption, status.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { DeviceCard } from '../../../components/paged-list/device-card.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { idOf, meterName } from '../../../lib/format.ts';
import type { WaterMeter } from '../../../lib/types.ts';
import { useMeterAlertsQuery } from '../api/meter-telemetry-api.ts';
import { useVolume } from '../../../lib/use-volume.ts';

function Line({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
      {label}: <Box component="span" sx={{ color: 'text.primary' }}>{value}</Box>
    </Typography>
  );
}

export function CriticalCard({ meter }: { meter: WaterMeter }) {
  const volume = useVolume();
  const { t } = useTranslation('meters');
  const { t: common } = useTranslation();
  const timestamp = useTimestamp();
  const id = idOf(meter._id);
  const { data: alerts = [] } = useMeterAlertsQuery({ id, onlyRaised: true });
  return (
    <DeviceCard
      to={`/water-meters/${id}`}
      name={meterName(meter)}
      dot="red"
      dotLabel={common('status.critical')}
      lines={[
        { label: common('list.bleAddress'), value: meter.bleAddress },
        { label: common('list.lastSeen'), value: timestamp(meter.lastseen, common('fallback.notAvailable')) },
      ]}
    >
      {alerts.length > 0 ? (
        <Box component="ul" aria-label={t('lists.raisedAlerts')} sx={{ my: 0.5, pl: 2.5 }}>
          {alerts.map((alert, index) => (
            <Typography component="li" variant="body2" key={`${alert.type}-${String(index)}`} sx={{ overflowWrap: 'anywhere' }}>
              {t('lists.alert', { type: alert.type, status: alert.status })}
            </Typography>
          ))}
        </Box>
      ) : null}
      <Line label={common('list.consumption')} value={volume(meter.totalConsumption)} />
      <Line label={t('lists.deviceStatus')} value={meter.deviceStatus} />
    </DeviceCard>
  );
}
