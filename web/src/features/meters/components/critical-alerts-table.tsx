// Critical Alerts (spec §2): 'raised' first; the heading pulses red while the
// meter is in critical state (still, when the user prefers reduced motion).
import Box from '@mui/material/Box';
import { darken, lighten, type Theme } from '@mui/material/styles';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { DataTable } from '../../../components/data-table/data-table.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import type { CriticalAlert } from '../../../lib/types.ts';
import { useMeterAlertsQuery } from '../api/meter-telemetry-api.ts';
import { TableSection } from '../../../components/table-section.tsx';

type Row = CriticalAlert & { key: string };

const RAISED = 'raised';

/** Raised alerts first; otherwise the server's order. */
export function raisedFirst(alerts: readonly CriticalAlert[]): CriticalAlert[] {
  const rank = (alert: CriticalAlert) => (alert.status === RAISED ? 0 : 1);
  return [...alerts].sort((a, b) => rank(a) - rank(b));
}

// The pulse runs between two reds that both keep 4.5:1 contrast on the
// theme's background (WCAG AA), the error colour and a shade of it further
// from the background: fading the text's opacity would make it unreadable
// half the time.
const PULSE = (theme: Theme) => {
  const { main } = theme.palette.error;
  const far = theme.palette.mode === 'dark' ? lighten(main, 0.4) : darken(main, 0.4);
  return {
    color: main,
    '@keyframes criticalPulse': { '0%': { color: main }, '50%': { color: far }, '100%': { color: main } },
    animation: 'criticalPulse 1.5s ease-in-out infinite',
    '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
  };
};

const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

export function CriticalAlertsTable({ meterId, critical }: { meterId: string; critical: boolean }) {
  const { t } = useTranslation('meters');
  const timestamp = useTimestamp();
  const { data, isLoading } = useMeterAlertsQuery({ id: meterId });
  const rows = useMemo<Row[]>(
    () => raisedFirst(data ?? []).map((alert, index) => ({ ...alert, key: String(index) })),
    [data],
  );
  const title = (
    <>
      {t('alerts.title')}
      {critical ? <Box component="span" sx={VISUALLY_HIDDEN}>{` (${t('alerts.inCritical')})`}</Box> : null}
    </>
  );
  return (
    <TableSection
      title={title}
      loading={isLoading}
      {...(critical ? { headingSx: PULSE } : {})}
      headingProps={{ 'data-critical': String(critical) }}
    >
      <DataTable
        label={t('alerts.title')}
        rows={rows}
        rowId={(row) => row.key}
        emptyText={t('alerts.empty')}
        columns={[
          { field: 'type', header: t('alerts.type') },
          { field: 'status', header: t('alerts.status') },
          { field: 'receivedAt', header: t('alerts.received'), value: (r) => timestamp(r.receivedAt) },
          { field: 'updatedAt', header: t('alerts.updated'), value: (r) => timestamp(r.updatedAt) },
        ]}
      />
    </TableSection>
  );
}
