// A dialog holding a form (a new user, a new API key, an alarm rule). The
// form is labelled by the dialog's title; below its fields come the form's
// alert (a refusal no field explains), then Cancel and the submit button,
// which waits while the form is sent.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface DialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  /** The form, given the title's id; mounted at each opening, so it starts empty. */
  children: (titleId: string) => ReactNode;
}

export function FormDialog({ open, title, onClose, children }: DialogProps) {
  const titleId = useId();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {children(titleId)}
    </Dialog>
  );
}

interface FormProps {
  titleId: string;
  submitLabel: string;
  busy: boolean;
  /** The form's alert. */
  problem: string | null;
  onSubmit: () => void;
  onClose: () => void;
  /** The fields. */
  children: ReactNode;
}

export function DialogForm({ titleId, submitLabel, busy, problem, onSubmit, onClose, children }: FormProps) {
  const { t } = useTranslation();
  return (
    <Box
      component="form"
      noValidate
      aria-labelledby={titleId}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <DialogContent sx={{ pt: 0 }}>
        {children}
        {problem ? (
          <Alert severity="error" sx={{ mt: 1 }}>
            {problem}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('actions.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={busy}>
          {submitLabel}
        </Button>
      </DialogActions>
    </Box>
  );
}
