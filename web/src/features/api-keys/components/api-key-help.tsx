// How a program uses a key: the header it sends, as code.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

export function ApiKeyHelp() {
  const { t } = useTranslation('apiKeys');
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
      {t('help.text')}{' '}
      <Box component="code" sx={{ fontFamily: 'monospace', color: 'text.primary', bgcolor: 'action.hover', borderRadius: 0.5, px: 0.5, whiteSpace: 'nowrap' }}>
        {t('help.header')}
      </Box>
    </Typography>
  );
}
