// The frame of the admin screens (users, API keys, alarm rules, the audit
// trail): the title, then what the role may see, or a notice that it may
// not, and then nothing is asked of the server. Inside, AdminList shows a
// list the server refuses (403) as the same notice, a failed load as an
// alert above the list, and the last action's refusal until it is closed.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

import { isForbidden } from '../lib/api.ts';
import { useCan, type Permission } from '../lib/permissions.ts';

interface PageProps {
  title: string;
  permission: Permission;
  notAllowed: string;
  /** What the role may see: mounted only when it may. */
  children: ReactNode;
}

export function AdminPage({ title, permission, notAllowed, children }: PageProps) {
  const allowed = useCan(permission);
  const titleId = useId();
  return (
    <Box component="section" aria-labelledby={titleId}>
      <Typography id={titleId} variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {allowed ? children : <Alert severity="info">{notAllowed}</Alert>}
    </Box>
  );
}

interface ListProps {
  /** The list's load error: a 403 shows `notAllowed` instead of the page, any other `loadFailed`. */
  error: unknown;
  notAllowed: string;
  loadFailed: string;
  /** The list is left out while it first loads. */
  loading?: boolean;
  /** The controls above, e.g. a search and a New button. */
  toolbar: ReactNode;
  /** The last action's refusal, and how it is closed. */
  refusal?: { message: string | null; onClose: () => void };
  list: ReactNode;
  /** The page's dialogs. */
  children?: ReactNode;
}

export function AdminList({ error, notAllowed, loadFailed, loading = false, toolbar, refusal, list, children }: ListProps) {
  if (error && isForbidden(error)) return <Alert severity="info">{notAllowed}</Alert>;
  return (
    <>
      {toolbar}
      {refusal?.message ? (
        <Alert severity="error" onClose={refusal.onClose} sx={{ mb: 2 }}>
          {refusal.message}
        </Alert>
      ) : null}
      {error ? (
        <Typography color="error" role="alert" sx={{ mb: 1 }}>
          {loadFailed}
        </Typography>
      ) : null}
      {loading ? null : list}
      {children}
    </>
  );
}
