import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A yes/no question, e.g. the delete confirmation (spec §2). */
export function ConfirmDialog({ open, title, text, confirmLabel, busy = false, onConfirm, onClose }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="confirm-title" aria-describedby="confirm-text">
      <DialogTitle id="confirm-title">{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id="confirm-text">{text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('actions.cancel')}</Button>
        <Button color="error" variant="contained" onClick={onConfirm} loading={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The words of a question. */
export interface QuestionWords {
  title: string;
  text: string;
  confirmLabel: string;
}

const NO_WORDS: QuestionWords = { title: '', text: '', confirmLabel: '' };

interface AboutProps<T> {
  /** What the question is about (a user to disable, a key to revoke); null closes it. */
  about: T | null;
  wordsOf: (about: T) => QuestionWords;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A question about one thing, worded from it; the words stay while the dialog fades out. */
export function ConfirmAboutDialog<T>({ about, wordsOf, ...actions }: AboutProps<T>) {
  const [last, setLast] = useState(about);
  if (about !== null && about !== last) setLast(about);
  return <ConfirmDialog open={about !== null} {...(last === null ? NO_WORDS : wordsOf(last))} {...actions} />;
}
