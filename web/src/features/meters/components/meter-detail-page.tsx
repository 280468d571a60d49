// Water meter detail (spec §2): `meterId` is a 24-hex id, or a serial number
// with or without its 'W-' prefix.
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';

import { METER_PREFIX } from '../../../lib/constants.ts';
import { deviceLookup, idOf } from '../../../lib/format.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useMeterDetailQuery } from '../api/meter-detail-api.ts';
import { MeterDetail } from './meter-detail.tsx';
import { BackButton } from './meter-title.tsx';

export default function MeterDetailPage() {
  const { t } = useTranslation('meters');
  const { t: common } = useTranslation();
  const { meterId = '' } = useParams();
  // `currentData` belongs to this parameter: another meter's record never shows.
  const { currentData: meter, error, isFetching } = useMeterDetailQuery(deviceLookup(meterId, METER_PREFIX));

  useLoggedError(error, 'meter');

  if (!meter && isFetching) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
        <CircularProgress aria-label={common('loading')} />
      </Box>
    );
  }
  if (!meter) {
    return (
      <Box>
        <BackButton />
        <Typography color="error" role="alert" sx={{ mt: 2 }}>
          {t('detail.loadFailed')}
        </Typography>
      </Box>
    );
  }
  return <MeterDetail key={idOf(meter._id)} meter={meter} />;
}
