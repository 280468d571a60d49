// The routing failure screen (spec §2, §8).
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

export function ErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${String(error.status)} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : null;
  if (!isRouteErrorResponse(error)) console.error('routing failed', error);
  return (
    <Box component="main" sx={{ p: 4, textAlign: 'center' }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('errors.unexpected')}
      </Typography>
      {detail ? (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {detail}
        </Typography>
      ) : null}
      <Button component={Link} to="/" variant="contained">
        {t('errors.goHome')}
      </Button>
    </Box>
  );
}
