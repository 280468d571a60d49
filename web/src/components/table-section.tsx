// A titled table of the detail page, with an optional action next to the
// heading and an optional Load More below.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Paging {
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

interface Props {
  title: ReactNode;
  headingSx?: SxProps<Theme>;
  headingProps?: Record<`data-${string}`, string>;
  action?: ReactNode;
  loading: boolean;
  paging?: Paging;
  children: ReactNode;
}

export function TableSection({ title, headingSx, headingProps, action, loading, paging, children }: Props) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: 2, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, mb: 1 }}>
        <Typography id={headingId} variant="h6" component="h2" sx={headingSx ?? {}} {...headingProps}>
          {title}
        </Typography>
        {action}
      </Box>
      {loading ? (
        <Box sx={{ display: 'grid', placeItems: 'center', p: 2 }}>
          <CircularProgress size={28} aria-label={t('loading')} />
        </Box>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>{children}</Box>
      )}
      {paging?.hasMore && !loading ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 1 }}>
          <Button variant="outlined" size="small" onClick={paging.loadMore} disabled={paging.loadingMore}>
            {paging.loadingMore ? t('list.loading') : t('list.loadMore')}
          </Button>
        </Box>
      ) : null}
    </Paper>
  );
}
