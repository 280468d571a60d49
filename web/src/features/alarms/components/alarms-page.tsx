// Alarms (/alarms): every alarm of the network in a server-paged grid, the
// filter and order in the URL so that a view can be shared, the open alarm in
// a side panel. Open alarms follow the lifecycle live through `alarm` hints.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import { useCan } from '../../../lib/permissions.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { apiParams, isFiltered } from '../api/alarm-view.ts';
import { EXPORT_LIMIT, useAlarmExport } from '../hooks/use-alarm-export.ts';
import { useAlarmPages } from '../hooks/use-alarm-pages.ts';
import { useAlarmView } from '../hooks/use-alarm-view.ts';
import { useGridPreferences } from '../hooks/use-grid-preferences.ts';
import { AlarmFilters } from './alarm-filters.tsx';
import { AlarmPanel } from './alarm-panel.tsx';
import { AlarmsGrid } from './alarms-grid.tsx';
import { AlarmToolbarContext, type AlarmToolbarActions } from './alarms-toolbar.tsx';
import { BulkAcknowledgeDialog } from './bulk-acknowledge-dialog.tsx';

export default function AlarmsPage() {
  const { t } = useTranslation('alarms');
  const notify = useNotice();
  const canAct = useCan('changeDevices');
  const { view, setView, open, setOpen } = useAlarmView();
  const { preferences, change } = useGridPreferences();
  const params = useMemo(() => apiParams(view), [view]);
  const pages = useAlarmPages(params, preferences.pageSize);
  const { exportCsv, exporting } = useAlarmExport(params);
  const [selection, setSelection] = useState<string[]>([]);
  const [bulkOpen, setBulkOpen] = useState(false);
  useLoggedError(pages.error, 'alarms');

  const deviceName = pages.rows.find((alarm) => alarm.deviceId === view.device)?.deviceName ?? null;
  const toolbar: AlarmToolbarActions = {
    selected: canAct ? selection.length : null,
    onAcknowledge: () => { setBulkOpen(true); },
    exporting,
    onExport: () => {
      void exportCsv().then((outcome) => {
        if (outcome === 'failed') notify(t('toolbar.exportFailed'), 'error');
        if (outcome === 'capped') notify(t('toolbar.exportCapped', { count: EXPORT_LIMIT }), 'info');
      });
    },
  };

  return (
    <Box component="section" aria-labelledby="alarms-title">
      <Typography id="alarms-title" variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('title')}
      </Typography>
      <AlarmFilters view={view} onChange={setView} deviceName={deviceName} />
      {pages.error ? (
        <Typography color="error" role="alert" sx={{ mb: 1 }}>{t('loadFailed')}</Typography>
      ) : null}
      <AlarmToolbarContext value={toolbar}>
        <AlarmsGrid
          rows={pages.rows}
          loading={pages.loading}
          page={pages.page}
          rowCount={pages.rowCount}
          hasNextPage={pages.hasNextPage}
          onPage={pages.goTo}
          sort={view}
          onSort={(sort, order) => { setView({ ...view, sort, order }); }}
          selection={canAct ? selection : null}
          onSelection={setSelection}
          onOpen={setOpen}
          preferences={preferences}
          onPreferences={change}
          emptyText={isFiltered(view) ? t('emptyFiltered') : t('empty')}
        />
      </AlarmToolbarContext>
      <BulkAcknowledgeDialog
        ids={selection}
        open={bulkOpen}
        onClose={() => { setBulkOpen(false); }}
        onDone={() => {
          setBulkOpen(false);
          setSelection([]);
        }}
      />
      <AlarmPanel alarmId={open} onClose={() => { setOpen(null); }} />
    </Box>
  );
}
