// The left panel's fields, in the spec's order (spec §2, Gateway detail).
import { useTranslation } from 'react-i18next';

import { FieldList } from '../../../components/field-list.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { formatGps, idOf } from '../../../lib/format.ts';
import type { Gateway } from '../../../lib/types.ts';

export function GatewayFields({ gateway }: { gateway: Gateway }) {
  const { t } = useTranslation('gateways');
  const { t: tc } = useTranslation();
  const timestamp = useTimestamp();
  const na = tc('fallback.notAvailable');
  return (
    <FieldList
      fields={[
        { label: t('fields.deviceId'), value: idOf(gateway._id) },
        { label: t('fields.deviceName'), value: gateway.deviceName ?? na },
        { label: t('fields.serialNumber'), value: gateway.serialNumber },
        { label: t('fields.imei'), value: gateway.imei },
        { label: t('fields.bleAddress'), value: gateway.bleAddress },
        { label: t('fields.macAddress'), value: gateway.macAddress },
        { label: t('fields.phoneNumber'), value: gateway.phoneNumber },
        { label: t('fields.lastSeen'), value: timestamp(gateway.lastseen) },
        { label: t('fields.registeredAt'), value: timestamp(gateway.registeredAt, na) },
        { label: t('fields.discoveredPeripherals'), value: gateway.discoveredPeripheralsCount },
        { label: t('fields.recordsCount'), value: gateway.recordsCount },
        { label: t('fields.waterMetersCount'), value: gateway.waterMetersCount },
        { label: t('fields.gpsLocation'), value: formatGps(gateway.gpsCoordinates) ?? na },
      ]}
    />
  );
}
