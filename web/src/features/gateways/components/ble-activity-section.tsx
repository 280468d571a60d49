// 'BLE Activities' (spec §2): the meters the gateway heard; a row opens the meter.
import { useTranslation } from 'react-i18next';

import { BleActivityTable } from '../../../components/ble-activity-table.tsx';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useGatewayBleActivityQuery } from '../api/gateway-telemetry-api.ts';
import { Section } from './section.tsx';

export function BleActivitySection({ gatewayId }: { gatewayId: string }) {
  const { t } = useTranslation();
  const { data, error } = useGatewayBleActivityQuery(gatewayId);
  useLoggedError(error, 'BLE activity');
  return (
    <Section title={t('ble.title')}>
      <BleActivityTable rows={data} peer="meter" />
    </Section>
  );
}
