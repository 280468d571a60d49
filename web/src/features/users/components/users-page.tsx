// Users (/admin/users, admins only; docs/administration.md): the users by
// username, searched as one types, each with its role, state and actions;
// New user above. Another role is told it may not, and nothing is asked.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { AdminList, AdminPage } from '../../../components/admin-page.tsx';
import { ConfirmAboutDialog } from '../../../components/confirm-dialog.tsx';
import { useNotice } from '../../../components/notice.tsx';
import { USER_SEARCH_DEBOUNCE_MS } from '../../../lib/constants.ts';
import { useAppSelector } from '../../../lib/hooks.ts';
import { selectUserId } from '../../../lib/session.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useUsersQuery, type CreatedUser } from '../api/users-api.ts';
import { useDebouncedValue } from '../hooks/use-debounced-value.ts';
import { useUserActions, type Pending } from '../hooks/use-user-actions.ts';
import { NewUserDialog } from './new-user-dialog.tsx';
import { OneTimePasswordDialog } from './one-time-password-dialog.tsx';
import { UsersTable } from './users-table.tsx';

export default function UsersPage() {
  const { t } = useTranslation('users');
  return (
    <AdminPage title={t('title')} permission="manageUsers" notAllowed={t('notAllowed')}>
      <UserManagement />
    </AdminPage>
  );
}

function UserManagement() {
  const { t } = useTranslation('users');
  const { t: common } = useTranslation();
  const notify = useNotice();
  const ownId = useAppSelector(selectUserId);
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), USER_SEARCH_DEBOUNCE_MS);
  const { data: users, error, isLoading, isFetching } = useUsersQuery(q);
  const actions = useUserActions();
  const [creating, setCreating] = useState(false);
  useLoggedError(error, 'users');

  const created = ({ user, oneTimePassword }: CreatedUser) => {
    setCreating(false);
    if (oneTimePassword) actions.showOneTime({ username: user.username, password: oneTimePassword });
    else notify(t('done.created', { username: user.username }));
  };

  const toolbar = (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 2 }}>
      <TextField
        type="search"
        size="small"
        label={t('search')}
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
        }}
        sx={{ width: 280, maxWidth: '100%' }}
      />
      {isFetching ? <CircularProgress size={20} aria-label={common('loading')} /> : null}
      <Button variant="contained" onClick={() => { setCreating(true); }} sx={{ ml: 'auto' }}>
        {t('newUser')}
      </Button>
    </Box>
  );
  return (
    <AdminList
      error={error}
      notAllowed={t('notAllowed')}
      loadFailed={t('loadFailed')}
      loading={isLoading}
      toolbar={toolbar}
      refusal={{ message: actions.error, onClose: actions.clearError }}
      list={
        <UsersTable
          users={users ?? []}
          ownId={ownId}
          working={actions.working}
          onRole={(user, role) => void actions.changeRole(user, role)}
          onEnable={(user) => void actions.enable(user)}
          onAsk={actions.ask}
        />
      }
    >
      <NewUserDialog open={creating} onClose={() => { setCreating(false); }} onCreated={created} />
      <UserConfirmDialog pending={actions.pending} busy={actions.working !== null} onConfirm={() => void actions.confirm()} onClose={actions.cancel} />
      <OneTimePasswordDialog oneTime={actions.oneTime} onClose={actions.closeOneTime} />
    </AdminList>
  );
}

function UserConfirmDialog({ pending, ...actions }: { pending: Pending | null; busy: boolean; onConfirm: () => void; onClose: () => void }) {
  const { t } = useTranslation('users');
  const wordsOf = ({ kind, user: { username } }: Pending) =>
    ({
      disable: { title: t('confirm.disableTitle', { username }), text: t('confirm.disableText', { username }), confirmLabel: t('actions.disable') },
      reset: { title: t('confirm.resetTitle', { username }), text: t('confirm.resetText', { username }), confirmLabel: t('actions.resetPassword') },
      revoke: { title: t('confirm.revokeTitle', { username }), text: t('confirm.revokeText', { username }), confirmLabel: t('actions.revokeSessions') },
    })[kind];
  return <ConfirmAboutDialog about={pending} wordsOf={wordsOf} {...actions} />;
}
