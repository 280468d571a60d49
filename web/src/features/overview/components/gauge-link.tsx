// One overview gauge: a circular arc with the number in its centre, the whole
// card being a link to the matching list (spec §2, Overview).
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

export type GaugeColour = 'success' | 'warning' | 'error';

const SIZE = 140;
const FULL = 100;
/** The ring's outer radius, inside a margin of 10, and its width, to an inner radius of 78 %. */
const OUTER = SIZE / 2 - 10;
const WIDTH = OUTER * 0.22;
const RADIUS = OUTER - WIDTH / 2;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;
const VIEW_BOX = [0, 0, SIZE, SIZE].join(' ');
/** The arc starts at twelve o'clock. */
const FROM_TWELVE = `rotate(-90 ${String(SIZE / 2)} ${String(SIZE / 2)})`;

/**
 * The arc: a ring, and over it from twelve o'clock clockwise the share
 * filled. Drawn by hand, as x-charts' Gauge drew it: that Gauge brought
 * 170 KB of charting into the overview's first render (docs/web.md).
 */
function Arc({ percent, colour }: { percent: number; colour: GaugeColour }) {
  const filled = (Math.min(FULL, Math.max(0, percent)) / FULL) * CIRCUMFERENCE;
  const ring = { cx: SIZE / 2, cy: SIZE / 2, r: RADIUS, fill: 'none', strokeWidth: WIDTH };
  return (
    <Box component="svg" width={SIZE} height={SIZE} viewBox={VIEW_BOX} sx={{ display: 'block' }}>
      <Box component="circle" {...ring} sx={{ stroke: (theme) => theme.palette.divider }} />
      {filled > 0 ? (
        <Box
          component="circle"
          {...ring}
          strokeDasharray={[filled, CIRCUMFERENCE].join(' ')}
          transform={FROM_TWELVE}
          sx={{ stroke: (theme) => theme.palette[colour].main }}
        />
      ) : null}
    </Box>
  );
}

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
          <Arc percent={percent} colour={colour} />
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
