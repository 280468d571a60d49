// Acknowledge the selected alarms at once, with one optional note. Alarms
// that changed meanwhile (already acknowledged, cleared) are reported, not
// failed.
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import { isForbidden } from '../../../lib/api.ts';
import { useAcknowledgeAlarmsMutation } from '../api/alarms-api.ts';

interface Props {
  ids: readonly string[];
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}

export function BulkAcknowledgeDialog({ ids, open, onClose, onDone }: Props) {
  const { t } = useTranslation('alarms');
  const { t: common } = useTranslation();
  const notify = useNotice();
  const [note, setNote] = useState('');
  const [acknowledge, { isLoading }] = useAcknowledgeAlarmsMutation();
  const confirm = async () => {
    try {
      const outcome = await acknowledge({ ids: [...ids], note: note.trim() }).unwrap();
      const done = outcome.acknowledged.length;
      const skipped = outcome.skipped.length;
      notify(skipped ? t('bulk.skipped', { done, skipped }) : t('bulk.done', { count: done }), skipped ? 'info' : 'success');
      setNote('');
      onDone();
    } catch (error) {
      notify(isForbidden(error) ? t('actions.denied') : t('actions.failed'), 'error');
    }
  };
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="bulk-ack-title" aria-describedby="bulk-ack-text">
      <DialogTitle id="bulk-ack-title">{t('bulk.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="bulk-ack-text">{t('bulk.text', { count: ids.length })}</DialogContentText>
        <TextField
          fullWidth
          size="small"
          margin="dense"
          label={t('panel.note')}
          value={note}
          onChange={(event) => { setNote(event.target.value); }}
          slotProps={{ htmlInput: { maxLength: 2000 } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{common('actions.cancel')}</Button>
        <Button variant="contained" onClick={() => void confirm()} loading={isLoading}>
          {t('actions.acknowledge')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
