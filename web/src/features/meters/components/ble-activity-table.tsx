// BLE Activities (spec §2): gateway, timestamp, RSSI (colour and number); a
// row opens the gateway.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { DataTable } from '../../../components/data-table/data-table.tsx';
import { RssiValue } from '../../../components/rssi-value.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import type { BleActivity } from '../../../lib/types.ts';
import { useMeterBleActivityQuery } from '../api/meter-telemetry-api.ts';
import { TableSection } from './table-section.tsx';

type Row = BleActivity & { key: string };

export function BleActivityTable({ meterId }: { meterId: string }) {
  const { t } = useTranslation('meters');
  const { t: common } = useTranslation();
  const timestamp = useTimestamp();
  const navigate = useNavigate();
  const { data, isLoading } = useMeterBleActivityQuery(meterId);
  const rows = useMemo<Row[]>(() => (data ?? []).map((row, index) => ({ ...row, key: String(index) })), [data]);
  return (
    <TableSection title={t('ble.title')} loading={isLoading}>
      <DataTable
        label={t('ble.title')}
        rows={rows}
        rowId={(row) => row.key}
        emptyText={t('ble.empty')}
        onRowClick={(row) => {
          if (row.gatewayId) void navigate(`/gateways/${row.gatewayId}`);
        }}
        columns={[
          { field: 'gatewayId', header: t('ble.gateway'), value: (r) => r.gatewayId ?? common('fallback.na') },
          { field: 'timestamp', header: t('ble.timestamp'), value: (r) => timestamp(r.timestamp) },
          { field: 'rssi', header: t('ble.rssi'), value: (r) => r.rssi, render: (r) => <RssiValue rssi={r.rssi} /> },
        ]}
      />
    </TableSection>
  );
}
