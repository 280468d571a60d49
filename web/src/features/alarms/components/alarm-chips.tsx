// An alarm's severity and lifecycle status as small coloured chips. The word
// is always written, so colour is never the only cue, and every colour holds
// 4.5:1 contrast against its background (WCAG AA).
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
  return (
    <Chip
      size="small"
      variant="outlined"
      label={words.status(status)}
      data-status={status}
      sx={{ color: colour, borderColor: colour }}
    />
  );
}
