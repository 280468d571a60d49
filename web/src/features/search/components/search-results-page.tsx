// Search Results (spec §2): the devices the search box passed along, or
// 'No matching devices found'.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

import { idOf } from '../../../lib/format.ts';
import { isGateway } from '../../../lib/types.ts';
import { SearchResultCard } from './search-result-card.tsx';
import { resultsOf } from './search-state.ts';

export default function SearchResultsPage() {
  const { t } = useTranslation('search');
  const location = useLocation();
  const results = resultsOf(location.state);

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
      <Typography id="search-results-title" variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('results.title')}
      </Typography>
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
