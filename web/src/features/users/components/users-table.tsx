// The users as a table: a row's role is changed in place; Disable, Reset
// password and Revoke sessions ask first. The signed-in admin's own role and
// state cannot be changed (the server refuses: own_account), so their row
// does not offer it.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

import { ListTable } from '../../../components/list-table.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { ROLES, isRole, type Role } from '../../../lib/permissions.ts';
import type { ManagedUser } from '../api/users-api.ts';
import type { ConfirmKind } from '../hooks/use-user-actions.ts';

interface Props {
  users: readonly ManagedUser[];
  /** The signed-in admin's id. */
  ownId: string | null;
  /** The id of the user being changed: their controls wait. */
  working: string | null;
  onRole: (user: ManagedUser, role: Role) => void;
  onEnable: (user: ManagedUser) => void;
  onAsk: (kind: ConfirmKind, user: ManagedUser) => void;
}

const COLUMNS = ['username', 'role', 'state', 'mustChange', 'created', 'actions'] as const;

export function UsersTable({ users, ownId, working, onRole, onEnable, onAsk }: Props) {
  const { t } = useTranslation('users');
  return (
    <ListTable
      label={t('table.label')}
      headers={COLUMNS.map((column) => t(`table.${column}`))}
      items={users}
      empty={t('table.empty')}
      row={(user) => (
        <UserRow
          key={user.id}
          user={user}
          own={user.id === ownId}
          busy={user.id === working}
          onRole={onRole}
          onEnable={onEnable}
          onAsk={onAsk}
        />
      )}
    />
  );
}

interface RowProps extends Pick<Props, 'onRole' | 'onEnable' | 'onAsk'> {
  user: ManagedUser;
  own: boolean;
  busy: boolean;
}

function UserRow({ user, own, busy, onRole, onEnable, onAsk }: RowProps) {
  const { t } = useTranslation('users');
  const { t: common } = useTranslation();
  const timestamp = useTimestamp();
  const { username } = user;
  return (
    <TableRow data-testid={`user-${username}`}>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>
        {username}
        {own ? <Chip size="small" label={t('table.you')} sx={{ ml: 1 }} /> : null}
      </TableCell>
      <TableCell>
        <TextField
          select
          size="small"
          value={user.role}
          disabled={own || busy}
          onChange={(event) => {
            if (isRole(event.target.value)) onRole(user, event.target.value);
          }}
          slotProps={{ htmlInput: { 'aria-label': t('table.roleOf', { username }) } }}
          sx={{ minWidth: 140 }}
        >
          {ROLES.map((role) => (
            <MenuItem key={role} value={role}>
              {common(`roles.${role}`)}
            </MenuItem>
          ))}
          {isRole(user.role) ? null : <MenuItem value={user.role}>{user.role}</MenuItem>}
        </TextField>
      </TableCell>
      <TableCell>
        <Chip
          size="small"
          variant="outlined"
          color={user.disabled ? 'default' : 'success'}
          label={user.disabled ? t('table.disabled') : t('table.active')}
        />
      </TableCell>
      <TableCell>{user.mustChangePassword ? common('fallback.yes') : common('fallback.no')}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{timestamp(user.createdAt)}</TableCell>
      <TableCell>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
          {user.disabled ? (
            <Button size="small" variant="outlined" disabled={busy} aria-label={t('actions.enableOf', { username })} onClick={() => { onEnable(user); }}>
              {t('actions.enable')}
            </Button>
          ) : (
            <Button
              size="small"
              variant="outlined"
              color="error"
              disabled={own || busy}
              aria-label={t('actions.disableOf', { username })}
              onClick={() => { onAsk('disable', user); }}
            >
              {t('actions.disable')}
            </Button>
          )}
          <Button size="small" disabled={busy} aria-label={t('actions.resetPasswordOf', { username })} onClick={() => { onAsk('reset', user); }}>
            {t('actions.resetPassword')}
          </Button>
          <Button size="small" disabled={busy} aria-label={t('actions.revokeSessionsOf', { username })} onClick={() => { onAsk('revoke', user); }}>
            {t('actions.revokeSessions')}
          </Button>
        </Box>
      </TableCell>
    </TableRow>
  );
}
