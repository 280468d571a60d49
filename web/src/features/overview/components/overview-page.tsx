// The overview (spec §2): device health gauges above the latest gateway
// activity; below them the network's consumption and its top consumers.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { OverviewActivity } from './overview-activity.tsx';
import { OverviewConsumption } from './overview-consumption.tsx';
import { OverviewGauges } from './overview-gauges.tsx';

export default function OverviewPage() {
  const { t } = useTranslation('overview');
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('title')}
      </Typography>
      <OverviewGauges />
      <OverviewActivity />
      <OverviewConsumption />
    </Box>
  );
}
