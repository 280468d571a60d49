// The routing failure screen (spec §2, §8): an unknown route, a screen that
// failed (route-error-boundary.tsx). A link, not a button, back to the
// overview: the app's entry then carries no button (docs/web.md).
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** The line under the heading for an unknown route. */
export const NOT_FOUND = '404 Not Found';

export function ErrorPage({ detail }: { detail: string | null }) {
  const { t } = useTranslation();
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
      <Typography component={Link} to="/" color="primary">
        {t('errors.goHome')}
      </Typography>
    </Box>
  );
}
