// The frame of a dialog that shows something once (a secret, a private
// key): a click beside it does not close it, since what it shows could not
// be shown again, and what it shows is kept while it fades out, then
// forgotten.
import Dialog from '@mui/material/Dialog';
import { useId, useState, type ReactNode } from 'react';

interface Props<T> {
  /** What to show; null closes the dialog. */
  shown: T | null;
  onClose: () => void;
  /** The content, given the ids its title (`${id}-title`) and text (`${id}-text`) must take. */
  children: (id: string, shown: T) => ReactNode;
}

export function ShownOnceDialog<T>({ shown, onClose, children }: Props<T>) {
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
      {kept === null ? null : children(id, kept)}
    </Dialog>
  );
}
