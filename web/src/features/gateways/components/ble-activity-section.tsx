// 'BLE Activities' (spec §2): which meters the gateway heard, when and how well.
// A row opens the meter.
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { DataTable, type Column } from '../../../components/data-table/data-table.tsx';
import { RssiValue } from '../../../components/rssi-value.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import type { BleActivity } from '../../../lib/types.ts';
import { useGatewayBleActivityQuery } from '../api/gateway-telemetry-api.ts';
import { useLoggedError } from '../hooks/use-logged-error.ts';
import { Section } from './section.tsx';

type Row = BleActivity & { key: string };

export function BleActivitySection({ gatewayId }: { gatewayId: string }) {
  const { t } = useTranslation('gateways');
  const { t: tc } = useTranslation();
  const timestamp = useTimestamp();
  const navigate = useNavigate();
  const { data, error } = useGatewayBleActivityQuery(gatewayId);
  useLoggedError(error, 'BLE activity');

  const na = tc('fallback.na');
  const rows: Row[] = (data ?? []).map((row, index) => ({ ...row, key: String(index) }));
  const columns: Column<Row>[] = [
    { field: 'meterId', header: t('ble.meter'), minWidth: 200, value: (row) => row.meterId ?? na },
    { field: 'timestamp', header: t('ble.timestamp'), minWidth: 130, value: (row) => timestamp(row.timestamp, na) },
    { field: 'rssi', header: t('ble.rssi'), minWidth: 90, value: (row) => row.rssi, render: (row) => <RssiValue rssi={row.rssi} /> },
  ];
  return (
    <Section title={t('ble.title')}>
      <DataTable
        label={t('ble.title')}
        rows={rows}
        columns={columns}
        rowId={(row) => row.key}
        onRowClick={(row) => {
          if (row.meterId) void navigate(`/water-meters/${row.meterId}`);
        }}
        emptyText={t('ble.empty')}
      />
    </Section>
  );
}
