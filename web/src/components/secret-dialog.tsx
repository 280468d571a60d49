// A secret shown once (a one-time password, a new API key's secret, a
// gateway's MQTT secret): read-only, with a copy button, after what goes with
// it (the gateway's username), copyable too. A click beside the dialog does
// not close it: the secret could not be shown again. What it shows is kept
// while the dialog fades out, then forgotten.
import ContentCopyIcon from './icons/content-copy';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';

import { useNotice } from './notice.tsx';
import { ShownOnceDialog } from './shown-once-dialog.tsx';

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

/** A value shown above the secret, read-only and copyable (e.g. the username that goes with it). */
export interface CopyableDetail {
  label: string;
  value: string;
  copy: string;
  copied: string;
}

interface Props<T> {
  /** What to show; null closes the dialog. */
  shown: T | null;
  secretOf: (shown: T) => string;
  wordsOf: (shown: T) => SecretWords;
  /** What goes with the secret, shown above it; none by default. */
  detailsOf?: (shown: T) => readonly CopyableDetail[];
  onClose: () => void;
}

export function SecretDialog<T>({ shown, secretOf, wordsOf, detailsOf, onClose }: Props<T>) {
  return (
    <ShownOnceDialog shown={shown} onClose={onClose}>
      {(id, kept) => (
        <SecretContent id={id} secret={secretOf(kept)} words={wordsOf(kept)} details={detailsOf?.(kept) ?? []} onClose={onClose} />
      )}
    </ShownOnceDialog>
  );
}

interface ContentProps {
  id: string;
  secret: string;
  words: SecretWords;
  details: readonly CopyableDetail[];
  onClose: () => void;
}

function SecretContent({ id, secret, words, details, onClose }: ContentProps) {
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
        {details.map((detail) => (
          <CopyableField key={detail.label} {...detail} copyFailed={words.copyFailed} />
        ))}
        <CopyableField label={words.label} value={secret} copy={words.copy} copied={words.copied} copyFailed={words.copyFailed} />
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {words.done}
        </Button>
      </DialogActions>
    </>
  );
}

function CopyableField({ label, value, copy, copied, copyFailed }: CopyableDetail & { copyFailed: string }) {
  const notify = useNotice();
  const copyValue = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notify(copied);
    } catch (error) {
      console.warn('the clipboard refused the value', error);
      notify(copyFailed, 'error');
    }
  };
  return (
    <TextField
      label={label}
      value={value}
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
              <Tooltip title={copy}>
                <IconButton aria-label={copy} edge="end" onClick={() => void copyValue()}>
                  <ContentCopyIcon />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
