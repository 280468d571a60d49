// A device card of the lists (spec §2): name, dot and label/value lines; the
// whole card links to the device. Device strings are rendered as text.
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { StatusDot, type DotColour } from '../status-dot.tsx';

export interface CardLine {
  label: string;
  value: ReactNode;
}

interface Props {
  to: string;
  name: string;
  dot: DotColour;
  dotLabel: string;
  lines: readonly CardLine[];
  children?: ReactNode;
}

export function DeviceCard({ to, name, dot, dotLabel, lines, children }: Props) {
  return (
    <Card variant="outlined" component="article" sx={{ height: '100%' }}>
      <CardActionArea component={Link} to={to} sx={{ height: '100%', alignItems: 'flex-start' }}>
        <CardContent sx={{ py: { xs: 1, md: 2 } }}>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
            <StatusDot colour={dot} label={dotLabel} />
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {name}
            </Typography>
          </Box>
          {lines.map((line) => (
            <Typography key={line.label} variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {line.label}: <Box component="span" sx={{ color: 'text.primary' }}>{line.value}</Box>
            </Typography>
          ))}
          {children}
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
