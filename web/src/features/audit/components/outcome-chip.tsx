// An entry's outcome as a chip: OK, or Refused with the refusal's code. The
// word is always written, so colour is never the only cue.
import Chip from '@mui/material/Chip';

import { useAuditWords } from '../hooks/use-audit-words.ts';

export function OutcomeChip({ outcome }: { outcome: string }) {
  const words = useAuditWords();
  return (
    <Chip size="small" variant="outlined" color={outcome === 'ok' ? 'success' : 'error'} label={words.outcome(outcome)} />
  );
}
