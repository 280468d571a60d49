// BLE Activities (spec §2): the gateways that heard the meter; a row opens the gateway.
import { useTranslation } from 'react-i18next';

import { BleActivityTable } from '../../../components/ble-activity-table.tsx';
import { useMeterBleActivityQuery } from '../api/meter-telemetry-api.ts';
import { TableSection } from '../../../components/table-section.tsx';

export function BleActivitySection({ meterId }: { meterId: string }) {
  const { t } = useTranslation();
  const { data, isLoading } = useMeterBleActivityQuery(meterId);
  return (
    <TableSection title={t('ble.title')} loading={isLoading}>
      <BleActivityTable rows={data} peer="gateway" />
    </TableSection>
  );
}
