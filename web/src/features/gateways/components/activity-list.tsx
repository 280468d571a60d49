// One gateway activity table (Meter, Topic, Action, Timestamp) with Load More.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import { DataTable, type Column } from '../../../components/data-table/data-table.tsx';
import { useOlderPages } from '../../../components/paged-list/use-older-pages.ts';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { ACTION_MAX, TOPIC_MAX } from '../../../lib/constants.ts';
import { idOf, truncate } from '../../../lib/format.ts';
import type { GatewayActivity } from '../../../lib/types.ts';
import { useLazyGatewayActivityPageQuery } from '../api/gateway-telemetry-api.ts';

interface Props {
  label: string;
  gatewayId: string;
  meterId: string | null;
  onRowClick?: (row: GatewayActivity) => void;
}

const rowId = (row: GatewayActivity) =>
  row._id ? idOf(row._id) : `${row.meterId ?? ''}|${row.timestamp}|${row.action}`;

export function ActivityList({ label, gatewayId, meterId, onRowClick }: Props) {
  const { t } = useTranslation('gateways');
  const { t: tc } = useTranslation();
  const timestamp = useTimestamp();
  const [fetchActivity] = useLazyGatewayActivityPageQuery();
  const fetchPage = useCallback(
    (start: string | undefined) =>
      fetchActivity({ gatewayId, ...(start ? { start } : {}), ...(meterId ? { meterId } : {}) }).unwrap(),
    [fetchActivity, gatewayId, meterId],
  );
  const { items: rows, status, loadingMore, hasMore, loadMore } = useOlderPages(fetchPage, rowId, `${gatewayId}|${meterId ?? ''}`);
  const loading = status === 'loading' || loadingMore;
  const na = tc('fallback.na');
  const orNa = (text: string | null | undefined) => (text === undefined || text === null || text === '' ? na : text);
  const columns: Column<GatewayActivity>[] = [
    // A click on the row drills down to the meter (spec §2): its name is not a link.
    { field: 'meterId', header: t('activity.meter'), minWidth: 200, value: (row) => orNa(row.meterName ?? row.meterId) },
    { field: 'mqttTopic', header: t('activity.topic'), minWidth: 160, value: (row) => orNa(row.mqttTopic && truncate(row.mqttTopic, TOPIC_MAX)) },
    { field: 'action', header: t('activity.action'), minWidth: 180, value: (row) => truncate(row.action, ACTION_MAX) },
    { field: 'timestamp', header: t('activity.timestamp'), minWidth: 130, value: (row) => timestamp(row.timestamp, na) },
  ];
  return (
    <>
      <DataTable
        label={label}
        rows={rows}
        columns={columns}
        rowId={rowId}
        {...(onRowClick ? { onRowClick } : {})}
        emptyText={loading ? tc('loading') : t('activity.empty')}
      />
      {hasMore ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 1 }}>
          <Button variant="outlined" onClick={loadMore} disabled={loading}>
            {loading ? tc('list.loading') : tc('list.loadMore')}
          </Button>
        </Box>
      ) : null}
    </>
  );
}
