// A meter's card in the lists (spec §2): name, dot, BLE address, last seen,
// consumption and critical.
import { useTranslation } from 'react-i18next';

import { DeviceCard } from '../../../components/paged-list/device-card.tsx';
import type { DotColour } from '../../../components/status-dot.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { idOf, meterName } from '../../../lib/format.ts';
import type { WaterMeter } from '../../../lib/types.ts';
import { useDotLabel } from '../hooks/use-dot-label.ts';
import { useVolume } from '../../../lib/use-volume.ts';

export function MeterCard({ meter, dot }: { meter: WaterMeter; dot: DotColour }) {
  const volume = useVolume();
  const { t } = useTranslation();
  const timestamp = useTimestamp();
  const dotLabel = useDotLabel();
  return (
    <DeviceCard
      to={`/water-meters/${idOf(meter._id)}`}
      name={meterName(meter)}
      dot={dot}
      dotLabel={dotLabel(dot)}
      lines={[
        { label: t('list.bleAddress'), value: meter.bleAddress },
        { label: t('list.lastSeen'), value: timestamp(meter.lastseen) },
        { label: t('list.consumption'), value: volume(meter.totalConsumption) },
        { label: t('list.critical'), value: meter.criticalState ? t('fallback.yes') : t('fallback.no') },
      ]}
    />
  );
}
