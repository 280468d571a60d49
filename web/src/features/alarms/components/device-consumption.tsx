// A meter's consumption chart with its alarms marked on the time axis: the
// chart is shared (components/consumption-chart.tsx); the marks are this
// feature's, so the app composes the two on the meter page.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ConsumptionChart, rangeOf, type ChartRange } from '../../../components/consumption-chart.tsx';
import { useAlarmsQuery } from '../api/alarms-api.ts';
import { useAlarmWords } from '../hooks/use-alarm-words.ts';

/** Alarms marked at most; the chart's range rarely holds more. */
const MARKED = 100;

export function MeterConsumption({ meterId }: { meterId: string }) {
  const { t } = useTranslation();
  const words = useAlarmWords();
  const [range, setRange] = useState<ChartRange>('30d');
  const { from, to } = useMemo(() => rangeOf(range), [range]);
  const { data } = useAlarmsQuery({ params: { device: meterId, from, to, sort: 'raisedAt', order: 'asc' }, max: MARKED });
  const marks = useMemo(
    () => (data?.items ?? []).map((alarm) => ({ at: alarm.raisedAt, name: words.type(alarm.type) })),
    [data, words],
  );
  return <ConsumptionChart meterId={meterId} title={t('chart.title')} marks={marks} range={range} onRange={setRange} download />;
}
