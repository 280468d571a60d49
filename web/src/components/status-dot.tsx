// A status dot: green, gray or red (spec §2), with a text label for screen readers.
import Box from '@mui/material/Box';
import type { SxProps, Theme } from '@mui/material/styles';

export type DotColour = 'green' | 'gray' | 'red';

const FILL: Record<DotColour, string> = {
  green: 'success.main',
  gray: 'grey.500',
  red: 'error.main',
};

const PULSE = {
  '@keyframes pulse': { '0%': { opacity: 1 }, '50%': { opacity: 0.3 }, '100%': { opacity: 1 } },
  animation: 'pulse 1.5s ease-in-out infinite',
  '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
};

interface Props {
  colour: DotColour;
  label: string;
  pulse?: boolean;
  sx?: SxProps<Theme>;
}

export function StatusDot({ colour, label, pulse = false, sx }: Props) {
  return (
    <Box
      component="span"
      role="img"
      aria-label={label}
      title={label}
      data-colour={colour}
      sx={[
        {
          display: 'inline-block',
          width: 12,
          height: 12,
          borderRadius: '50%',
          bgcolor: FILL[colour],
          flexShrink: 0,
        },
        pulse ? PULSE : {},
        ...(Array.isArray(sx) ? (sx as SxProps<Theme>[]) : [sx ?? {}]),
      ] as SxProps<Theme>}
    />
  );
}

/** Dots of spec §2: a meter is red if critical, green if Up, else gray. */
export function meterDot(meter: { criticalState: boolean; deviceStatus: string }): DotColour {
  if (meter.criticalState) return 'red';
  return meter.deviceStatus === 'Up' ? 'green' : 'gray';
}

export function gatewayDot(gateway: { isOnline: boolean }): DotColour {
  return gateway.isOnline ? 'green' : 'gray';
}
