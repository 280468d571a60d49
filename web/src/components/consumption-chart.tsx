// Consumption as bars (docs/analytics.md): a meter's, a gateway's or the network's,
// per hour, day or month over a chosen range, read from the rollups, in L or
// m³, with marks where alarms were raised. The bars load lazily; an empty
// range says so. A caller may offer the range as a CSV download.
import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { LITRES_SHOWN_UP_TO } from '../lib/format.ts';
import { useConsumptionSeriesQuery, type Bucket, type Series, type SeriesArg } from '../lib/rollups-api.ts';
import { CsvDownloadButton } from './csv-download-button.tsx';
import { TableSection } from './table-section.tsx';

const ConsumptionBars = lazy(() => import('./consumption-bars.tsx'));

export type ChartRange = '24h' | '7d' | '30d' | '12m';
const RANGES: readonly ChartRange[] = ['24h', '7d', '30d', '12m'];
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The bucket and span of each range, ending at the current bucket's end. */
const SPANS: Record<ChartRange, { bucket: Bucket; ms: number }> = {
  '24h': { bucket: 'hour', ms: DAY_MS },
  '7d': { bucket: 'day', ms: 7 * DAY_MS },
  '30d': { bucket: 'day', ms: 30 * DAY_MS },
  '12m': { bucket: 'month', ms: 365 * DAY_MS },
};

/** A mark on the time axis: an alarm raised at `at`. */
export interface ChartMark {
  at: string;
  name: string;
}

interface Props {
  meterId?: string;
  gatewayId?: string;
  title: string;
  marks?: readonly ChartMark[];
  /** The range shown, for a caller that reads marks over it. */
  range: ChartRange;
  /** Offers the ranges to choose from; without it the range is fixed. */
  onRange?: (range: ChartRange) => void;
  /** What an empty range says; by default "No consumption in this range". */
  emptyText?: string;
  /** Offers the range shown as a CSV download. */
  download?: boolean;
}

/** The instants a range spans now: to the end of the current hour. */
export function rangeOf(range: ChartRange, now = Date.now()): { bucket: Bucket; from: string; to: string } {
  const to = Math.ceil((now + 1) / HOUR_MS) * HOUR_MS;
  const { bucket, ms } = SPANS[range];
  return { bucket, from: new Date(to - ms).toISOString(), to: new Date(to).toISOString() };
}

/** Names a bucket by its first instant: its hour (local), or its day or month in the series' zone. */
export function bucketLabeller(bucket: Bucket, timeZone: string, language: string) {
  const options: Intl.DateTimeFormatOptions =
    bucket === 'hour' ? { hour: '2-digit', minute: '2-digit' }
    : bucket === 'day' ? { day: 'numeric', month: 'short', timeZone }
    : { month: 'short', year: 'numeric', timeZone };
  const format = new Intl.DateTimeFormat(language, options);
  return (iso: string) => format.format(new Date(iso));
}

/** The bucket of `series` holding `at`, if any. */
export function bucketIndex(series: Series, at: string): number {
  const time = Date.parse(at);
  let found = -1;
  series.points.forEach((point, i) => { if (Date.parse(point.start) <= time) found = i; });
  return time < Date.parse(series.to) ? found : -1;
}

export function ConsumptionChart({ meterId, gatewayId, title, marks = [], range, onRange, emptyText, download = false }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  // Fixed while the range is: a query argument that moved with the clock
  // would refetch on every render. Hints refetch the same range.
  const arg = useMemo<SeriesArg>(
    () => ({ ...(meterId ? { meter: meterId } : {}), ...(gatewayId ? { gateway: gatewayId } : {}), ...rangeOf(range) }),
    [meterId, gatewayId, range],
  );
  const { currentData: series, isFetching } = useConsumptionSeriesQuery(arg);
  const chart = useMemo(() => {
    if (!series) return null;
    const label = bucketLabeller(series.bucket, series.timeZone, language);
    const litres = series.points.map((p) => p.volumeMl / 1000);
    const cubic = Math.max(0, ...litres) > LITRES_SHOWN_UP_TO;
    const number = new Intl.NumberFormat(language, { maximumFractionDigits: 3 });
    const unit = cubic ? 'm³' : 'L';
    const bars = series.points.map((p, i) => ({ label: label(p.start), value: cubic ? (litres[i] ?? 0) / 1000 : (litres[i] ?? 0) }));
    const chartMarks = marks.flatMap((mark) => {
      const i = bucketIndex(series, mark.at);
      const bar = bars[i];
      return bar ? [{ label: bar.label, name: mark.name }] : [];
    });
    return { bars, unit, marks: chartMarks, format: (v: number | null) => (v === null ? '' : `${number.format(v)} ${unit}`) };
  }, [series, language, marks]);

  return (
    <TableSection
      title={title}
      loading={!series && isFetching}
      action={
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'flex-end', gap: 1 }}>
          {onRange ? (
            <ToggleButtonGroup size="small" exclusive value={range} aria-label={t('chart.range')} onChange={(_e, next: ChartRange | null) => { if (next) onRange(next); }}>
              {RANGES.map((r) => <ToggleButton key={r} value={r}>{t(`chart.ranges.${r}`)}</ToggleButton>)}
            </ToggleButtonGroup>
          ) : null}
          {download ? <CsvDownloadButton series={arg} /> : null}
        </Box>
      }
    >
      {chart && series && series.totalMl > 0 ? (
        <Box role="figure" aria-label={t('chart.figure', { title, total: chart.format(series.totalMl / (chart.unit === 'm³' ? 1e6 : 1e3)) })}>
          <Suspense fallback={<Skeleton variant="rounded" height={260} />}>
            <ConsumptionBars bars={chart.bars} unit={chart.unit} seriesLabel={title} format={chart.format} marks={chart.marks} />
          </Suspense>
        </Box>
      ) : chart ? (
        <Typography color="text.secondary" sx={{ py: 2 }}>{emptyText ?? t('chart.empty')}</Typography>
      ) : null}
    </TableSection>
  );
}
