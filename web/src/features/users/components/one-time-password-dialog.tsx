// A one-time password, shown once (a new user's or a reset's): read-only,
// with a copy button. A click beside the dialog does not close it: the
// password could not be shown again.
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import type { OneTime } from '../hooks/use-user-actions.ts';

interface Props {
  oneTime: OneTime | null;
  onClose: () => void;
}

export function OneTimePasswordDialog({ oneTime, onClose }: Props) {
  const { t } = useTranslation('users');
  const notify = useNotice();
  const id = useId();
  // Kept while the dialog fades out, then forgotten.
  const [shown, setShown] = useState(oneTime);
  if (oneTime !== null && oneTime !== shown) setShown(oneTime);
  const copy = async (password: string) => {
    try {
      await navigator.clipboard.writeText(password);
      notify(t('oneTime.copied'));
    } catch (error) {
      console.warn('the clipboard refused the password', error);
      notify(t('oneTime.copyFailed'), 'error');
    }
  };
  return (
    <Dialog
      open={oneTime !== null}
      onClose={(_event, reason) => {
        if (reason !== 'backdropClick') onClose();
      }}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      fullWidth
      maxWidth="xs"
      slotProps={{
        transition: {
          onExited: () => {
            setShown(null);
          },
        },
      }}
    >
      {shown ? (
        <>
          <DialogTitle id={`${id}-title`}>{t('oneTime.title', { username: shown.username })}</DialogTitle>
          <DialogContent>
            <DialogContentText id={`${id}-text`}>{t('oneTime.text', { username: shown.username })}</DialogContentText>
            <TextField
              label={t('oneTime.label')}
              value={shown.password}
              fullWidth
              margin="normal"
              sx={{ '& input': { fontFamily: 'monospace' } }}
              onFocus={(event) => {
                event.target.select();
              }}
              slotProps={{
                htmlInput: { readOnly: true, spellCheck: false },
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <Tooltip title={t('oneTime.copy')}>
                        <IconButton aria-label={t('oneTime.copy')} edge="end" onClick={() => void copy(shown.password)}>
                          <ContentCopyIcon />
                        </IconButton>
                      </Tooltip>
                    </InputAdornment>
                  ),
                },
              }}
            />
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={onClose}>
              {t('oneTime.done')}
            </Button>
          </DialogActions>
        </>
      ) : null}
    </Dialog>
  );
}
