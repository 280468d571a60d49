// Notices (spec §8): one at a time, hidden after NOTICE_MS.
import Alert, { type AlertColor } from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { createContext, use, useCallback, useMemo, useState, type ReactNode } from 'react';

import { NOTICE_MS } from '../lib/constants.ts';

interface Notice {
  message: string;
  severity: AlertColor;
  key: number;
}

type Notify = (message: string, severity?: AlertColor) => void;

const NoticeContext = createContext<Notify | null>(null);

export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<Notice | null>(null);
  const notify = useCallback<Notify>((message, severity = 'success') => {
    setNotice({ message, severity, key: Date.now() });
  }, []);
  const value = useMemo(() => notify, [notify]);
  const close = () => {
    setNotice(null);
  };
  return (
    <NoticeContext value={value}>
      {children}
      <Snackbar
        key={notice?.key}
        open={notice !== null}
        autoHideDuration={NOTICE_MS}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        {notice ? (
          <Alert severity={notice.severity} variant="filled" onClose={close}>
            {notice.message}
          </Alert>
        ) : undefined}
      </Snackbar>
    </NoticeContext>
  );
}

/** `notify(message, 'success' | 'info' | 'error')` shows a notice. */
export function useNotice(): Notify {
  const notify = use(NoticeContext);
  if (!notify) throw new Error('useNotice needs a NoticeProvider');
  return notify;
}
