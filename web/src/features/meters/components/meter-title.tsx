// The detail page's header: Back, the status dot and the meter's name.
import ArrowBack from '../../../components/icons/arrow-back';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { meterDot, StatusDot } from '../../../components/status-dot.tsx';
import { useGoBack } from '../../../components/use-go-back.ts';
import { meterName } from '../../../lib/format.ts';
import type { WaterMeter } from '../../../lib/types.ts';
import { useDotLabel } from '../hooks/use-dot-label.ts';

export function BackButton() {
  const { t } = useTranslation();
  const goBack = useGoBack('/water-meters');
  return (
    <Button startIcon={<ArrowBack />} onClick={goBack}>
      {t('actions.back')}
    </Button>
  );
}

export function MeterTitle({ meter }: { meter: WaterMeter }) {
  const dotLabel = useDotLabel();
  const dot = meterDot(meter);
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
      <BackButton />
      <StatusDot colour={dot} label={dotLabel(dot)} />
      <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
        {meterName(meter)}
      </Typography>
    </Box>
  );
}
