// BLE Activities (spec §2): which device heard which, when and how well. From
// a gateway the peer is the meter it heard; from a meter, the gateway that
// heard it, shown by name. A row opens the peer's page.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import type { BleActivity } from '../lib/types.ts';
import { DataTable } from './data-table/data-table.tsx';
import { deviceColumn } from './device-link.tsx';
import { RssiValue } from './rssi-value.tsx';
import { useTimestamp } from './use-timestamp.ts';

type Row = BleActivity & { key: string };

const PEERS = {
  meter: { field: 'meterId', name: 'meterName', route: '/water-meters' },
  gateway: { field: 'gatewayId', name: 'gatewayName', route: '/gateways' },
} as const;

interface Props {
  rows: readonly BleActivity[] | undefined;
  peer: keyof typeof PEERS;
}

export function BleActivityTable({ rows, peer }: Props) {
  const { t } = useTranslation();
  const timestamp = useTimestamp();
  const navigate = useNavigate();
  const { field, name, route } = PEERS[peer];
  const keyed = useMemo<Row[]>(() => (rows ?? []).map((row, index) => ({ ...row, key: String(index) })), [rows]);
  const na = t('fallback.na');
  return (
    <DataTable
      label={t('ble.title')}
      rows={keyed}
      rowId={(row) => row.key}
      emptyText={t('ble.empty')}
      onRowClick={(row) => {
        const id = row[field];
        if (id) void navigate(`${route}/${id}`);
      }}
      columns={[
        deviceColumn<Row>({ field, header: t(`ble.${peer}`), minWidth: 200 }, peer, (row) => row[field], (row) => row[name], na),
        { field: 'timestamp', header: t('ble.timestamp'), minWidth: 130, value: (row) => timestamp(row.timestamp, na) },
        { field: 'rssi', header: t('ble.rssi'), minWidth: 90, value: (row) => row.rssi, render: (row) => <RssiValue rssi={row.rssi} /> },
      ]}
    />
  );
}
