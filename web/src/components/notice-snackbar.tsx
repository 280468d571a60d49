// The notice on screen (notice.tsx): a chunk of its own, loaded with the
// first notice, so that the app's entry carries no snackbar.
import Alert, { type AlertColor } from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';

import { NOTICE_MS } from '../lib/constants.ts';

interface Props {
  message: string;
  severity: AlertColor;
  onClose: () => void;
}

export default function NoticeSnackbar({ message, severity, onClose }: Props) {
  return (
    <Snackbar open autoHideDuration={NOTICE_MS} onClose={onClose} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
      <Alert severity={severity} variant="filled" onClose={onClose}>
        {message}
      </Alert>
    </Snackbar>
  );
}
