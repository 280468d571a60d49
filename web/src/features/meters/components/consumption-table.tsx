// Consumption Records (spec §2): '#value' and timestamp, newest first, with
// Load More.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import { DataTable } from '../../../components/data-table/data-table.tsx';
import { useOlderPages } from '../../../components/paged-list/use-older-pages.ts';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { idOf } from '../../../lib/format.ts';
import type { ConsumptionRecord } from '../../../lib/types.ts';
import { useLazyMeterConsumptionQuery } from '../api/meter-telemetry-api.ts';
import { TableSection } from '../../../components/table-section.tsx';
import { useVolume } from '../../../lib/use-volume.ts';

const keyOf = (record: ConsumptionRecord) => idOf(record._id);

export function ConsumptionTable({ meterId }: { meterId: string }) {
  const volume = useVolume();
  const { t } = useTranslation('meters');
  const timestamp = useTimestamp();
  const [fetchRecords] = useLazyMeterConsumptionQuery();
  const fetchPage = useCallback(
    (start: string | undefined) => fetchRecords({ id: meterId, ...(start ? { start } : {}) }).unwrap(),
    [fetchRecords, meterId],
  );
  const pages = useOlderPages(fetchPage, keyOf, meterId);
  return (
    <TableSection title={t('consumption.title')} loading={pages.status === 'loading'} paging={pages}>
      <DataTable
        label={t('consumption.title')}
        rows={pages.items}
        rowId={keyOf}
        emptyText={t('consumption.empty')}
        columns={[
          { field: 'record', header: t('consumption.record'), value: (r) => t('consumption.value', { value: volume(r.record) }) },
          { field: 'timestamp', header: t('consumption.timestamp'), value: (r) => timestamp(r.timestamp) },
        ]}
      />
    </TableSection>
  );
}
