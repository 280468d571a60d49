// Search Results (spec §2): the devices the search box passed along, or
// 'No matching devices found'.
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';

import { idOf } from '../../../lib/format.ts';
import { isGateway } from '../../../lib/types.ts';
import { SearchResultCard } from './search-result-card.tsx';
import { mapPathOf, resultsOf } from './search-state.ts';

export default function SearchResultsPage() {
  const { t } = useTranslation('search');
  const location = useLocation();
  const results = resultsOf(location.state);
  const mapPath = mapPathOf(location.state);

  if (!results) {
    return (
      <Box component="section" sx={{ textAlign: 'center', py: 4 }}>
        <Typography variant="h5" component="h1" gutterBottom>
          {t('results.notFound')}
        </Typography>
        <Typography color="text.secondary">{t('results.notFoundHint')}</Typography>
      </Box>
    );
  }

  return (
    <Box component="section" aria-labelledby="search-results-title">
      <Box sx={{ display: 'flex', alignItems: 'baseline', gap: 2, flexWrap: 'wrap', mb: 2 }}>
        <Typography id="search-results-title" variant="h5" component="h1">
          {t('results.title')}
        </Typography>
        {mapPath ? (
          <Link component={RouterLink} to={mapPath}>
            {t('results.showOnMap')}
          </Link>
        ) : null}
      </Box>
      <Box
        component="ul"
        sx={{
          listStyle: 'none',
          p: 0,
          m: 0,
          display: 'grid',
          gap: { xs: 1, md: 2 },
          gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(280px, 1fr))' },
        }}
      >
        {results.map((device) => (
          <li key={`${isGateway(device) ? 'g' : 'm'}-${idOf(device._id)}`}>
            <SearchResultCard device={device} />
          </li>
        ))}
      </Box>
    </Box>
  );
}
