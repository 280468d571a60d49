// A gateway's daily traffic over the last 30 days (docs/analytics.md, In
// the dashboard): uplinks relayed and meters heard, the bars loaded lazily,
// the total in the figure's name; a range without uplinks says so.
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { bucketLabeller, rangeOf } from '../../../components/consumption-chart.tsx';
import { TableSection } from '../../../components/table-section.tsx';
import { formatCount, pluralForm } from '../../../lib/format.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useGatewayTrafficQuery } from '../api/traffic-api.ts';

const TrafficBars = lazy(() => import('./traffic-bars.tsx'));

export function TrafficChart({ gatewayId }: { gatewayId: string }) {
  const { t, i18n } = useTranslation('gateways');
  const language = i18n.resolvedLanguage ?? i18n.language;
  // Fixed for the visit: an argument that moved with the clock would refetch.
  const arg = useMemo(() => {
    const { from, to } = rangeOf('30d');
    return { gateway: gatewayId, from, to };
  }, [gatewayId]);
  const { currentData: traffic, isFetching, error } = useGatewayTrafficQuery(arg);
  useLoggedError(error, 'gateway traffic');

  const chart = useMemo(() => {
    if (!traffic) return null;
    const label = bucketLabeller('day', traffic.timeZone, language);
    const uplinks = traffic.points.reduce((sum, point) => sum + point.uplinks, 0);
    return {
      days: traffic.points.map((point) => ({ label: label(point.start), uplinks: point.uplinks, meters: point.meters })),
      uplinks: t(`traffic.uplinkCount.${pluralForm(uplinks, language)}`, { n: formatCount(uplinks, language) }),
      empty: uplinks === 0,
      format: (value: number | null) => (value === null ? '' : formatCount(value, language)),
    };
  }, [traffic, language, t]);

  const title = t('traffic.title');
  return (
    <TableSection title={title} loading={!traffic && isFetching}>
      {chart && !chart.empty ? (
        <Box role="figure" aria-label={t('traffic.figure', { title, uplinks: chart.uplinks })}>
          <Suspense fallback={<Skeleton variant="rounded" height={260} />}>
            <TrafficBars days={chart.days} uplinksLabel={t('traffic.uplinks')} metersLabel={t('traffic.meters')} format={chart.format} />
          </Suspense>
        </Box>
      ) : chart ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>{t('traffic.empty')}</Typography>
      ) : null}
    </TableSection>
  );
}
