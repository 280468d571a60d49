// An alarm's severity and lifecycle status as small coloured chips. The word
// is always written, so colour is never the only cue, and every colour holds
// 4.5:1 contrast against its background (WCAG AA): a status's dark shade on
// the light theme's paper, the palette's light shade on the dark theme's.
import Chip from '@mui/material/Chip';

import { useAlarmWords } from '../hooks/use-alarm-words.ts';

const SEVERITY_BACKGROUND: Record<string, string> = {
  critical: '#b71c1c',
  major: '#bf360c',
  minor: '#01579b',
  warning: '#5f5f5f',
};

const STATUS_COLOUR: Record<string, string> = {
  active: '#b71c1c',
  acknowledged: '#7a4300',
  cleared: '#1b5e20',
  closed: '#555555',
};

const DARK_STATUS_COLOUR: Record<string, string> = {
  active: 'error.light',
  acknowledged: 'warning.light',
  cleared: 'success.light',
  closed: 'text.secondary',
};

export function SeverityChip({ severity }: { severity: string }) {
  const words = useAlarmWords();
  return (
    <Chip
      size="small"
      label={words.severity(severity)}
      sx={{ bgcolor: SEVERITY_BACKGROUND[severity] ?? '#5f5f5f', color: '#fff' }}
    />
  );
}

export function StatusChip({ status }: { status: string }) {
  const words = useAlarmWords();
  const colour = STATUS_COLOUR[status] ?? '#555555';
  const dark = DARK_STATUS_COLOUR[status] ?? 'text.secondary';
  return (
    <Chip
      size="small"
      variant="outlined"
      label={words.status(status)}
      data-status={status}
      sx={[{ color: colour, borderColor: colour }, (theme) => theme.applyStyles('dark', { color: dark, borderColor: dark })]}
    />
  );
}
