// 'Gateways Activities': the latest OVERVIEW_ACTIVITY_MAX rows, refreshed with
// the counts; a row opens its gateway (spec §2, Overview).
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { DataTable, type Column } from '../../../components/data-table/data-table.tsx';
import { deviceColumn } from '../../../components/device-link.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { ACTION_MAX, OVERVIEW_ACTIVITY_MAX, OVERVIEW_REFRESH_MS, TOPIC_MAX } from '../../../lib/constants.ts';
import { idOf, truncate } from '../../../lib/format.ts';
import type { GatewayActivity } from '../../../lib/types.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useOverviewActivityQuery } from '../api/overview-api.ts';

const rowId = (row: GatewayActivity) =>
  row._id ? idOf(row._id) : `${row.gatewayId}|${row.meterId ?? ''}|${row.timestamp}|${row.action}`;

export function OverviewActivity() {
  const { t } = useTranslation('overview');
  const { t: tc } = useTranslation();
  const timestamp = useTimestamp();
  const navigate = useNavigate();
  const { data, error } = useOverviewActivityQuery(OVERVIEW_ACTIVITY_MAX, { pollingInterval: OVERVIEW_REFRESH_MS });
  useLoggedError(error, 'gateway activity');

  const na = tc('fallback.na');
  /** An empty or missing value reads 'NA' (spec §2, Overview). */
  const orNa = (text: string | null | undefined) => (text === undefined || text === null || text === '' ? na : text);
  const columns: Column<GatewayActivity>[] = [
    deviceColumn({ field: 'gatewayId', header: t('activity.gateway'), minWidth: 200 }, 'gateway', (r) => r.gatewayId, (r) => r.gatewayName, na),
    deviceColumn({ field: 'meterId', header: t('activity.meter'), minWidth: 200 }, 'meter', (r) => r.meterId, (r) => r.meterName, na),
    { field: 'mqttTopic', header: t('activity.topic'), minWidth: 160, value: (row) => orNa(row.mqttTopic && truncate(row.mqttTopic, TOPIC_MAX)) },
    { field: 'action', header: t('activity.action'), minWidth: 180, value: (row) => truncate(row.action, ACTION_MAX) },
    { field: 'timestamp', header: t('activity.timestamp'), minWidth: 140, value: (row) => timestamp(row.timestamp, na) },
  ];

  return (
    <section aria-labelledby="overview-activity-title">
      <Typography id="overview-activity-title" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('activity.title')}
      </Typography>
      <DataTable
        label={t('activity.title')}
        rows={data ?? []}
        columns={columns}
        rowId={rowId}
        onRowClick={(row) => {
          void navigate(`/gateways/${row.gatewayId}`);
        }}
        emptyText={t('activity.empty')}
      />
    </section>
  );
}
