// 'Discovered Peripherals' (spec §2): shown only when the gateway has any.
// Names come from devices, so they are rendered as text only.
import { useTranslation } from 'react-i18next';

import { DataTable, type Column } from '../../../components/data-table/data-table.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import type { PeripheralDiscovery } from '../../../lib/types.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useGatewayPeripheralsQuery } from '../api/gateway-telemetry-api.ts';
import { Section } from './section.tsx';

type Row = PeripheralDiscovery & { key: string };

export function PeripheralsSection({ gatewayId }: { gatewayId: string }) {
  const { t } = useTranslation('gateways');
  const { t: tc } = useTranslation();
  const timestamp = useTimestamp();
  const { data, error } = useGatewayPeripheralsQuery(gatewayId);
  useLoggedError(error, 'peripheral discovery');
  if (!data?.length) return null;

  const na = tc('fallback.na');
  const rows: Row[] = data.map((row, index) => ({ ...row, key: String(index) }));
  const columns: Column<Row>[] = [
    { field: 'deviceName', header: t('peripherals.name'), minWidth: 140, value: (row) => row.deviceName ?? na },
    { field: 'bleAddress', header: t('peripherals.bleAddress'), minWidth: 150 },
    { field: 'timestamp', header: t('peripherals.timestamp'), minWidth: 130, value: (row) => timestamp(row.timestamp, na) },
  ];
  return (
    <Section title={t('peripherals.title')}>
      <DataTable label={t('peripherals.title')} rows={rows} columns={columns} rowId={(row) => row.key} emptyText={t('peripherals.empty')} />
    </Section>
  );
}
