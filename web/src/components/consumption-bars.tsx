// The bars of a consumption chart (@mui/x-charts), loaded lazily with it:
// one bar per bucket, in the chart's unit, and a marker line on the buckets
// where an alarm was raised. Arrow keys move between bars (the chart's
// keyboard navigation), each read with its bucket and volume.
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { ChartsReferenceLine } from '@mui/x-charts/ChartsReferenceLine';

export interface Bar {
  label: string;
  /** In the chart's unit. */
  value: number;
}

interface Props {
  bars: readonly Bar[];
  unit: string;
  seriesLabel: string;
  format: (value: number | null) => string;
  /** Labels of the bars to mark, with what to call each mark. */
  marks: readonly { label: string; name: string }[];
}

export default function ConsumptionBars({ bars, unit, seriesLabel, format, marks }: Props) {
  const { palette } = useTheme();
  // The error shade that reads as text on the theme's background.
  const markColour = palette.mode === 'dark' ? palette.error.light : palette.error.dark;
  return (
    <BarChart
      height={260}
      xAxis={[{ scaleType: 'band', data: bars.map((bar) => bar.label), tickLabelMinGap: 8 }]}
      yAxis={[{ label: unit, width: 56 }]}
      // Each bar is announced with its bucket, as the arrow keys reach it.
      series={[{ data: bars.map((bar) => bar.value), label: seriesLabel, valueFormatter: (value, { dataIndex }) => `${bars[dataIndex]?.label ?? ''}: ${format(value)}` }]}
      hideLegend
    >
      {marks.map((mark) => (
        <ChartsReferenceLine
          key={`${mark.label}-${mark.name}`}
          x={mark.label}
          label={mark.name}
          labelAlign="start"
          lineStyle={{ stroke: markColour, strokeDasharray: '4 2' }}
          labelStyle={{ fill: markColour, fontSize: 11 }}
        />
      ))}
    </BarChart>
  );
}
