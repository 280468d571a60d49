// The detail panel's fields (spec §2, Water meter detail), in the spec's order.
import { useTranslation } from 'react-i18next';

import { FieldList } from '../../../components/field-list.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { formatGps, idOf } from '../../../lib/format.ts';
import type { WaterMeter } from '../../../lib/types.ts';
import { useVolume } from '../../../lib/use-volume.ts';

export function MeterFields({ meter }: { meter: WaterMeter }) {
  const volume = useVolume();
  const { t } = useTranslation('meters');
  const { t: common } = useTranslation();
  const timestamp = useTimestamp();
  const na = common('fallback.na');
  return (
    <FieldList
      fields={[
        { label: t('detail.fields.deviceId'), value: idOf(meter._id) },
        { label: t('detail.fields.lastSeen'), value: timestamp(meter.lastseen) },
        { label: t('detail.fields.bleAddress'), value: meter.bleAddress },
        { label: t('detail.fields.serialNumber'), value: meter.serialNumber },
        { label: t('detail.fields.totalConsumption'), value: volume(meter.totalConsumption) },
        { label: t('detail.fields.registeredAt'), value: timestamp(meter.registeredAt, na) },
        { label: t('detail.fields.lastGatewayId'), value: meter.lastGatewayId ?? na },
        { label: t('detail.fields.gpsLocation'), value: formatGps(meter.gpsCoordinates) ?? na },
        { label: t('detail.fields.deviceStatus'), value: meter.deviceStatus },
      ]}
    />
  );
}
