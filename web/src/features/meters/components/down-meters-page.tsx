// Down Water Meters (spec §2): meters switched off by a confirmed shutdown
// request. A failed load shows the empty state (spec §8).
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { lostDot, MeterListScreen } from './meter-list-screen.tsx';

function NoDownMeter() {
  const { t } = useTranslation('meters');
  return (
    <Box sx={{ py: 4, textAlign: 'center' }}>
      <Typography variant="h6" component="p">
        {t('lists.downEmpty')}
      </Typography>
      <Typography color="text.secondary">{t('lists.downEmptyHint')}</Typography>
    </Box>
  );
}

export default function DownMetersPage() {
  return <MeterListScreen kind="down" dot={lostDot} empty={<NoDownMeter />} />;
}
