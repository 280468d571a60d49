// The frame of every device list (spec §2): title with the total, start-date
// picker, cards, then Load More with its 'shown of total' counter.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { StartDatePicker } from '../start-date-picker.tsx';
import type { PagedList } from './use-load-more.ts';

interface Props<T> {
  title: string;
  list: PagedList<T>;
  total: number | undefined;
  startDay: string | null;
  onStartDayChange: (day: string | null) => void;
  keyOf: (item: T) => string;
  renderCard: (item: T) => ReactNode;
  /** Shown instead of the cards when the list is empty. */
  empty?: ReactNode;
  /** Card columns get narrow below this width; defaults to the small breakpoint. */
  mobileBelowPx?: number;
  /** A control beside the title, e.g. an Export menu. */
  titleAction?: ReactNode;
}

export function DeviceListPage<T>(props: Props<T>) {
  const { t } = useTranslation();
  const { list, total } = props;
  const shown = list.items.length;
  const mobile = props.mobileBelowPx === undefined ? '@media (max-width: 999.95px)' : `@media (max-width: ${String(props.mobileBelowPx - 0.05)}px)`;
  return (
    <Box component="section" aria-labelledby="list-title">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 2, mb: 2 }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
          <Typography id="list-title" variant="h5" component="h1">
            {props.title}
          </Typography>
          {props.titleAction}
        </Box>
        <StartDatePicker value={props.startDay} onChange={props.onStartDayChange} />
      </Box>
      {list.status === 'loading' ? (
        <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
          <CircularProgress aria-label={t('loading')} />
        </Box>
      ) : shown === 0 ? (
        (props.empty ?? <Typography color="text.secondary">{t('list.empty')}</Typography>)
      ) : (
        <Box
          sx={{
            display: 'grid',
            gap: 2,
            gridTemplateColumns: 'repeat(auto-fill, minmax(280px, 1fr))',
            [mobile]: { gridTemplateColumns: '1fr', gap: 1 },
          }}
        >
          {list.items.map((item) => (
            <Box key={props.keyOf(item)}>{props.renderCard(item)}</Box>
          ))}
        </Box>
      )}
      {shown > 0 ? (
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, mt: 2 }}>
          {list.hasMore ? (
            <Button variant="outlined" onClick={list.loadMore} disabled={list.loadingMore}>
              {list.loadingMore ? t('list.loading') : t('list.loadMore')}
            </Button>
          ) : null}
          <Typography variant="body2" color="text.secondary" data-testid="list-counter">
            {t('list.counter', { shown, total: total ?? shown })}
          </Typography>
        </Box>
      ) : null}
    </Box>
  );
}
