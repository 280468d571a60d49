// What shows while a screen's chunk loads: the start-up session check, the
// router's first lazy routes, a page inside the shell.
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';

export function PageFallback() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
      <CircularProgress aria-label={t('loading')} />
    </Box>
  );
}
