// A device's latest alarms on its detail page, each with its lifecycle state
// and, for a leak detector's alarm, its evidence; a row opens the alarm on
// the Alarms screen, limited to this device.
import Link from '@mui/material/Link';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';

import { DataTable } from '../../../components/data-table/data-table.tsx';
import { TableSection } from '../../../components/table-section.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import type { Alarm } from '../api/alarm-types.ts';
import { useAlarmsQuery } from '../api/alarms-api.ts';
import { useAlarmEvidence } from '../hooks/use-alarm-evidence.ts';
import { useAlarmWords } from '../hooks/use-alarm-words.ts';
import { SeverityChip, StatusChip } from './alarm-chips.tsx';

const SHOWN = 10;

export function DeviceAlarms({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation('alarms');
  const words = useAlarmWords();
  const evidence = useAlarmEvidence();
  const timestamp = useTimestamp();
  const navigate = useNavigate();
  const { data, isLoading, error } = useAlarmsQuery({ params: { device: deviceId }, max: SHOWN });
  useLoggedError(error, 'device alarms');
  const all = `/alarms?device=${deviceId}`;
  const rows = data?.items ?? [];
  // The column shows only when a detector raised one of the alarms listed.
  const withEvidence = rows.some((alarm) => evidence(alarm) !== null);
  return (
    <TableSection
      title={t('device.title')}
      loading={isLoading}
      action={
        <Link component={RouterLink} to={all} variant="body2">
          {t('device.viewAll')}
        </Link>
      }
    >
      <DataTable<Alarm>
        label={t('device.title')}
        rows={rows}
        rowId={(alarm) => alarm.id}
        emptyText={t('device.empty')}
        onRowClick={(alarm) => void navigate(`${all}&alarm=${alarm.id}`)}
        columns={[
          { field: 'type', header: t('columns.type'), value: (a) => words.type(a.type) },
          { field: 'severity', header: t('columns.severity'), value: (a) => words.severity(a.severity), render: (a) => <SeverityChip severity={a.severity} /> },
          { field: 'status', header: t('columns.status'), value: (a) => words.status(a.status), render: (a) => <StatusChip status={a.status} /> },
          { field: 'raisedAt', header: t('columns.raisedAt'), minWidth: 130, value: (a) => timestamp(a.raisedAt) },
          { field: 'assignee', header: t('columns.assignee'), value: (a) => a.assignee?.name ?? '' },
          ...(withEvidence
            ? [{ field: 'evidence', header: t('columns.evidence'), flex: 3, minWidth: 260, wrap: true, value: (a: Alarm) => evidence(a) ?? '' }]
            : []),
        ]}
      />
    </TableSection>
  );
}
