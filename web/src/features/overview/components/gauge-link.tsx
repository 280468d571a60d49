// One overview gauge: a circular arc with the number in its centre, the whole
// card being a link to the matching list (spec §2, Overview).
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Typography from '@mui/material/Typography';
import { Gauge, gaugeClasses } from '@mui/x-charts/Gauge';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export type GaugeColour = 'success' | 'warning' | 'error';

const SIZE = 140;
const FULL = 100;
const hideText = () => null;

interface Props {
  label: string;
  to: string;
  /** The number in the centre, or a placeholder while loading. */
  value: string;
  /** Arc fill, 0 to 100. */
  percent: number;
  colour: GaugeColour;
  /** The link's accessible name: label and value. */
  accessibleName: string;
  /** `data-testid` of the centre value. */
  testId: string;
  caption?: ReactNode;
}

export function GaugeLink({ label, to, value, percent, colour, accessibleName, testId, caption }: Props) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardActionArea component={Link} to={to} aria-label={accessibleName} sx={{ height: '100%', p: 2, textAlign: 'center' }}>
        <Box sx={{ position: 'relative', width: SIZE, height: SIZE, mx: 'auto' }} aria-hidden>
          <Gauge
            width={SIZE}
            height={SIZE}
            value={Math.min(FULL, Math.max(0, percent))}
            valueMin={0}
            valueMax={FULL}
            innerRadius="78%"
            text={hideText}
            sx={(theme) => ({ [`& .${gaugeClasses.valueArc}`]: { fill: theme.palette[colour].main } })}
          />
          <Typography
            component="span"
            variant="h5"
            data-testid={testId}
            sx={{ position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', fontWeight: 600 }}
          >
            {value}
          </Typography>
        </Box>
        <Typography component="span" variant="subtitle1" sx={{ display: 'block', fontWeight: 600, mt: 1 }}>
          {label}
        </Typography>
        {caption ? (
          <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
            {caption}
          </Typography>
        ) : null}
      </CardActionArea>
    </Card>
  );
}
