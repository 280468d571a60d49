// One audit entry, opened from its row: every field, and the target before
// and after as indented JSON (as text, never HTML). Kept while the dialog
// fades out.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { FieldList } from '../../../components/field-list.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import type { AuditEntry, Snapshot } from '../api/audit-api.ts';
import { useAuditWords } from '../hooks/use-audit-words.ts';
import { AuditTarget } from './audit-grid.tsx';
import { OutcomeChip } from './outcome-chip.tsx';

interface Props {
  entry: AuditEntry | null;
  onClose: () => void;
}

function SnapshotBlock({ title, value }: { title: string; value: Snapshot | null }) {
  const { t } = useTranslation('audit');
  const id = useId();
  return (
    <Box component="section" aria-labelledby={id} sx={{ mt: 2 }}>
      <Typography id={id} variant="subtitle2" component="h3" sx={{ mb: 0.5 }}>
        {title}
      </Typography>
      {value === null ? (
        <Typography variant="body2" color="text.secondary">{t('detail.none')}</Typography>
      ) : (
        <Box
          component="pre"
          tabIndex={0}
          sx={{ m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, fontSize: '0.8125rem', overflow: 'auto', maxHeight: 320 }}
        >
          {JSON.stringify(value, null, 2)}
        </Box>
      )}
    </Box>
  );
}

export function AuditEntryDialog({ entry, onClose }: Props) {
  const { t } = useTranslation('audit');
  const { t: common } = useTranslation();
  const words = useAuditWords();
  const timestamp = useTimestamp();
  const titleId = useId();
  const [shown, setShown] = useState(entry);
  if (entry !== null && entry !== shown) setShown(entry);
  return (
    <Dialog
      open={entry !== null}
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="md"
      slotProps={{ transition: { onExited: () => { setShown(null); } } }}
    >
      {shown ? (
        <>
          <DialogTitle id={titleId}>{t('detail.title', { action: shown.action, at: timestamp(shown.at) })}</DialogTitle>
          <DialogContent>
            <FieldList
              fields={[
                { label: t('columns.at'), value: <time dateTime={shown.at}>{shown.at}</time> },
                { label: t('columns.actor'), value: shown.username ? `${shown.username} (${shown.actor})` : shown.actor },
                { label: t('columns.role'), value: words.role(shown.role) },
                { label: t('columns.action'), value: shown.action },
                { label: t('columns.target'), value: <AuditTarget entry={shown} /> },
                { label: t('columns.outcome'), value: <OutcomeChip outcome={shown.outcome} /> },
                { label: t('columns.sourceIp'), value: shown.sourceIp || common('fallback.na') },
                { label: t('columns.detail'), value: shown.detail || common('fallback.na') },
              ]}
            />
            <SnapshotBlock title={t('detail.before')} value={shown.before} />
            <SnapshotBlock title={t('detail.after')} value={shown.after} />
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{common('actions.close')}</Button>
          </DialogActions>
        </>
      ) : null}
    </Dialog>
  );
}
