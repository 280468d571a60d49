// The meters that used the most over the last TOP_DAYS days, most first:
// each a link to its page, with its volume and a bar against the first.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { DeviceLink } from '../../../components/device-link.tsx';
import { TableSection } from '../../../components/table-section.tsx';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useVolume } from '../../../lib/use-volume.ts';
import { useTopConsumersQuery } from '../api/top-consumers-api.ts';

const TOP_DAYS = 7;
const TOP_LIMIT = 10;

export function TopConsumers() {
  const { t } = useTranslation('overview');
  const volume = useVolume();
  const { data, isFetching, error } = useTopConsumersQuery({ days: TOP_DAYS, limit: TOP_LIMIT });
  useLoggedError(error, 'top consumers');
  const items = useMemo(
    () => (data?.items ?? []).filter((item) => item.volumeMl > 0).sort((a, b) => b.volumeMl - a.volumeMl),
    [data],
  );
  const most = items[0]?.volumeMl ?? 0;

  return (
    <TableSection title={t('top.title')} loading={!data && isFetching}>
      {items.length > 0 ? (
        <Box component="ol" aria-label={t('top.title')} sx={{ m: 0, pl: 3, display: 'grid', gap: 1 }}>
          {items.map((item) => (
            <Box component="li" key={item.meterId} sx={{ '&::marker': { color: 'text.secondary' } }}>
              <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
                <DeviceLink id={item.meterId} name={item.meterName === '' ? null : item.meterName} kind="meter" />
                <Typography component="span" variant="body2" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                  {volume(item.volumeMl / 1000)}
                </Typography>
              </Box>
              <Box aria-hidden sx={{ height: 4, mt: 0.5, borderRadius: 1, bgcolor: 'primary.main', width: `${String((item.volumeMl / most) * 100)}%` }} />
            </Box>
          ))}
        </Box>
      ) : data ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>{t('top.empty')}</Typography>
      ) : null}
    </TableSection>
  );
}
