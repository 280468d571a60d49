// Notices (spec §8): one at a time, hidden after NOTICE_MS.
import type { AlertColor } from '@mui/material/Alert';
import { createContext, lazy, Suspense, use, useCallback, useMemo, useState, type ReactNode } from 'react';

const NoticeSnackbar = lazy(() => import('./notice-snackbar.tsx'));

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
      {notice ? (
        <Suspense fallback={null}>
          <NoticeSnackbar key={notice.key} message={notice.message} severity={notice.severity} onClose={close} />
        </Suspense>
      ) : null}
    </NoticeContext>
  );
}

/** `notify(message, 'success' | 'info' | 'error')` shows a notice. */
export function useNotice(): Notify {
  const notify = use(NoticeContext);
  if (!notify) throw new Error('useNotice needs a NoticeProvider');
  return notify;
}
