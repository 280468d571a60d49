// A secret shown once (a one-time password, a new API key's secret):
// read-only, with a copy button. A click beside the dialog does not close
// it: the secret could not be shown again. What it shows is kept while the
// dialog fades out, then forgotten.
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
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

import { useNotice } from './notice.tsx';

/** The dialog's words, in the user's language. */
export interface SecretWords {
  title: string;
  text: string;
  /** Set apart as a warning, above the secret. */
  warning?: string;
  /** The secret's field. */
  label: string;
  copy: string;
  copied: string;
  copyFailed: string;
  done: string;
}

interface Props<T> {
  /** What to show; null closes the dialog. */
  shown: T | null;
  secretOf: (shown: T) => string;
  wordsOf: (shown: T) => SecretWords;
  onClose: () => void;
}

export function SecretDialog<T>({ shown, secretOf, wordsOf, onClose }: Props<T>) {
  const id = useId();
  const [kept, setKept] = useState(shown);
  if (shown !== null && shown !== kept) setKept(shown);
  return (
    <Dialog
      open={shown !== null}
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
            setKept(null);
          },
        },
      }}
    >
      {kept === null ? null : <SecretContent id={id} secret={secretOf(kept)} words={wordsOf(kept)} onClose={onClose} />}
    </Dialog>
  );
}

function SecretContent({ id, secret, words, onClose }: { id: string; secret: string; words: SecretWords; onClose: () => void }) {
  const notify = useNotice();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      notify(words.copied);
    } catch (error) {
      console.warn('the clipboard refused the secret', error);
      notify(words.copyFailed, 'error');
    }
  };
  return (
    <>
      <DialogTitle id={`${id}-title`}>{words.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={`${id}-text`}>{words.text}</DialogContentText>
        {words.warning ? (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {words.warning}
          </Alert>
        ) : null}
        <TextField
          label={words.label}
          value={secret}
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
                  <Tooltip title={words.copy}>
                    <IconButton aria-label={words.copy} edge="end" onClick={() => void copy()}>
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
          {words.done}
        </Button>
      </DialogActions>
    </>
  );
}
