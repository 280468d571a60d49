// CSV export of the current filter: every alarm it selects, read page by
// page through the keyset cursor, up to EXPORT_LIMIT alarms.
import { useState } from 'react';

import { saveBlob } from '../../../lib/save-file.ts';
import { alarmsCsv } from '../api/alarm-csv.ts';
import type { Alarm } from '../api/alarm-types.ts';
import { useLazyAlarmsQuery } from '../api/alarms-api.ts';

const EXPORT_PAGE = 500;
export const EXPORT_LIMIT = 50_000;

export type ExportOutcome = 'done' | 'capped' | 'failed';

export function useAlarmExport(params: Record<string, string>) {
  const [read] = useLazyAlarmsQuery();
  const [exporting, setExporting] = useState(false);

  const exportCsv = async (): Promise<ExportOutcome> => {
    setExporting(true);
    try {
      const alarms: Alarm[] = [];
      let after: string | undefined;
      do {
        const page = await read({ params, max: EXPORT_PAGE, after }).unwrap();
        alarms.push(...page.items);
        after = page.next ?? undefined;
      } while (after && alarms.length < EXPORT_LIMIT);
      const csv = new Blob([alarmsCsv(alarms.slice(0, EXPORT_LIMIT))], { type: 'text/csv;charset=utf-8' });
      saveBlob(csv, `alarms-${new Date().toISOString().slice(0, 10)}.csv`);
      return after ? 'capped' : 'done';
    } catch {
      return 'failed';
    } finally {
      setExporting(false);
    }
  };
  return { exportCsv, exporting };
}
