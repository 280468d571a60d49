// Gateway Activities (spec §2) with Load More; a row drills down to that
// gateway's activities for this meter, with Back and its own Load More.
import Button from '@mui/material/Button';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { DataTable } from '../../../components/data-table/data-table.tsx';
import { useOlderPages } from '../../../components/paged-list/use-older-pages.ts';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { ACTION_MAX, TOPIC_MAX } from '../../../lib/constants.ts';
import { idOf, truncate } from '../../../lib/format.ts';
import type { GatewayActivity } from '../../../lib/types.ts';
import { useLazyMeterGatewayActivityQuery } from '../api/meter-telemetry-api.ts';
import { TableSection } from '../../../components/table-section.tsx';

const keyOf = (row: GatewayActivity) =>
  row._id ? idOf(row._id) : `${row.gatewayId}|${row.timestamp}|${row.action}`;

export function GatewayActivityTable({ meterId }: { meterId: string }) {
  const { t } = useTranslation('meters');
  const { t: common } = useTranslation();
  const timestamp = useTimestamp();
  const [gatewayId, setGatewayId] = useState<string | null>(null);
  const [fetchActivity] = useLazyMeterGatewayActivityQuery();
  const fetchPage = useCallback(
    (start: string | undefined) =>
      fetchActivity({ id: meterId, ...(start ? { start } : {}), ...(gatewayId ? { gatewayId } : {}) }).unwrap(),
    [fetchActivity, meterId, gatewayId],
  );
  const pages = useOlderPages(fetchPage, keyOf, `${meterId}|${gatewayId ?? ''}`);
  const title = gatewayId ? t('activity.forGateway', { gatewayId }) : t('activity.title');
  const back = gatewayId ? (
    <Button size="small" aria-label={t('activity.backToAll')} onClick={() => { setGatewayId(null); }}>
      {common('actions.back')}
    </Button>
  ) : null;
  return (
    <TableSection title={title} action={back} loading={pages.status === 'loading'} paging={pages}>
      <DataTable
        label={title}
        rows={pages.items}
        rowId={keyOf}
        emptyText={t('activity.empty')}
        {...(gatewayId ? {} : { onRowClick: (row: GatewayActivity) => { setGatewayId(row.gatewayId); } })}
        columns={[
          // A click on the row drills down to the gateway (spec §2): its name is not a link.
          { field: 'gatewayId', header: t('activity.gateway'), value: (r) => r.gatewayName ?? r.gatewayId },
          {
            field: 'mqttTopic',
            header: t('activity.topic'),
            value: (r) => (r.mqttTopic ? truncate(r.mqttTopic, TOPIC_MAX) : common('fallback.na')),
          },
          { field: 'action', header: t('activity.action'), value: (r) => truncate(r.action, ACTION_MAX) },
          { field: 'timestamp', header: t('activity.timestamp'), value: (r) => timestamp(r.timestamp) },
        ]}
      />
    </TableSection>
  );
}
