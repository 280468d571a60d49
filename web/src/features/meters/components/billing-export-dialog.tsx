// Billing export (docs/analytics.md, Exports): every meter's index at a
// chosen time (now by default; the server rounds it down to its hour),
// optionally only the meters a text matches, downloaded as CSV under the
// server's file name. Any role may download it.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { isCancelled } from '../../../lib/api.ts';
import { useMeterIndexCsvMutation } from '../../../lib/exports-api.ts';
import { instantOf, localDateTimeInput } from '../../../lib/local-date-time.ts';

interface Props {
  open: boolean;
  onClose: () => void;
}

export function BillingExportDialog({ open, onClose }: Props) {
  const { t } = useTranslation('meters');
  const titleId = useId();
  const textId = useId();
  // The form is mounted at each opening, so its time starts at that moment.
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} aria-describedby={textId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('billing.title')}</DialogTitle>
      <BillingExportForm textId={textId} onClose={onClose} />
    </Dialog>
  );
}

function BillingExportForm({ textId, onClose }: { textId: string; onClose: () => void }) {
  const { t } = useTranslation('meters');
  const { t: common } = useTranslation();
  const [at, setAt] = useState(() => localDateTimeInput(new Date()));
  const [filter, setFilter] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [download, { isLoading, isError, reset }] = useMeterIndexCsvMutation();

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    const instant = instantOf(at);
    if (!instant) {
      setInvalid(true);
      return;
    }
    try {
      await download({ at: instant.toISOString(), q: filter }).unwrap();
      onClose();
    } catch (error) {
      if (isCancelled(error)) reset();
    }
  };

  return (
    <Box component="form" noValidate onSubmit={(event) => { void submit(event); }}>
      <DialogContent sx={{ pt: 0 }}>
        <DialogContentText id={textId}>{t('billing.text')}</DialogContentText>
        <Stack spacing={2} sx={{ mt: 2 }}>
          <TextField
            type="datetime-local"
            name="at"
            label={t('billing.at')}
            value={at}
            onChange={(event) => { setAt(event.target.value); setInvalid(false); }}
            error={invalid}
            helperText={invalid ? t('billing.invalidAt') : t('billing.atHint')}
            size="small"
            fullWidth
            required
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            name="q"
            label={t('billing.filter')}
            value={filter}
            onChange={(event) => { setFilter(event.target.value); }}
            helperText={t('billing.filterHint')}
            size="small"
            fullWidth
          />
          {isError ? <Alert severity="error">{t('billing.failed')}</Alert> : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isLoading}>
          {common('actions.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={isLoading} loadingPosition="start">
          {isLoading ? common('export.downloading') : t('billing.download')}
        </Button>
      </DialogActions>
    </Box>
  );
}
