// Below the spec's overview: the network's daily consumption over the last
// 30 days (the shared consumption chart, with its CSV download) beside the
// top consumers of the last 7 days. Both load once per visit; readings
// refetch them at most once a minute (docs/analytics.md, In the dashboard).
import Box from '@mui/material/Box';
import { useTranslation } from 'react-i18next';

import { ConsumptionChart } from '../../../components/consumption-chart.tsx';
import { TopConsumers } from './top-consumers.tsx';

export function OverviewConsumption() {
  const { t } = useTranslation('overview');
  return (
    <Box
      sx={{
        display: 'grid',
        gap: 3,
        mt: 3,
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 1fr)' },
        alignItems: 'start',
      }}
    >
      <ConsumptionChart title={t('consumption.title')} range="30d" emptyText={t('consumption.empty')} download />
      <TopConsumers />
    </Box>
  );
}
