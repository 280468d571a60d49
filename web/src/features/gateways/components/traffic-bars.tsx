// The bars of a gateway's traffic (@mui/x-charts), loaded lazily: per day the
// uplinks it relayed (left axis) beside the meters it heard (right axis).
// Arrow keys move between the days of a series, up and down between the
// series; each bar is read with its series, day and count.
import { BarChart } from '@mui/x-charts/BarChart';

export interface TrafficDay {
  label: string;
  uplinks: number;
  meters: number;
}

interface Props {
  days: readonly TrafficDay[];
  uplinksLabel: string;
  metersLabel: string;
  format: (value: number | null) => string;
}

export default function TrafficBars({ days, uplinksLabel, metersLabel, format }: Props) {
  const read = (value: number | null, { dataIndex }: { dataIndex: number }) => `${days[dataIndex]?.label ?? ''}: ${format(value)}`;
  return (
    <BarChart
      height={260}
      xAxis={[{ scaleType: 'band', data: days.map((day) => day.label), tickLabelMinGap: 8 }]}
      yAxis={[
        { id: 'uplinks', label: uplinksLabel, position: 'left', width: 64 },
        { id: 'meters', label: metersLabel, position: 'right', width: 56 },
      ]}
      series={[
        { data: days.map((day) => day.uplinks), label: uplinksLabel, yAxisId: 'uplinks', valueFormatter: read },
        { data: days.map((day) => day.meters), label: metersLabel, yAxisId: 'meters', valueFormatter: read },
      ]}
    />
  );
}
