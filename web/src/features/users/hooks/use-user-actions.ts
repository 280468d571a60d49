// What an admin does to a listed user: a role or an enable at once; a
// disable, a password reset or a revocation once confirmed. A refusal shows
// as the page's alert; a reset's one-time password in its dialog, once.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import type { Role } from '../../../lib/permissions.ts';
import { useRowActions } from '../../../lib/use-row-actions.ts';
import {
  useResetPasswordMutation,
  useRevokeSessionsMutation,
  useUpdateUserMutation,
  type ManagedUser,
} from '../api/users-api.ts';
import { useUserErrors } from './use-user-errors.ts';

export type ConfirmKind = 'disable' | 'reset' | 'revoke';

export interface Pending {
  kind: ConfirmKind;
  user: ManagedUser;
}

export interface OneTime {
  username: string;
  password: string;
}

export function useUserActions() {
  const { t } = useTranslation('users');
  const { t: common } = useTranslation();
  const notify = useNotice();
  const { problem } = useUserErrors();
  const [update] = useUpdateUserMutation();
  const [reset] = useResetPasswordMutation();
  const [revoke] = useRevokeSessionsMutation();
  const { run, ask, confirm: settle, ...rows } = useRowActions<Pending>(problem);
  const [oneTime, setOneTime] = useState<OneTime | null>(null);

  const changeRole = async (user: ManagedUser, role: Role) => {
    if (role === user.role) return;
    if (await run(user.id, () => update({ id: user.id, role }).unwrap())) {
      notify(t('done.role', { username: user.username, role: common(`roles.${role}`) }));
    }
  };

  const enable = async (user: ManagedUser) => {
    if (await run(user.id, () => update({ id: user.id, disabled: false }).unwrap())) {
      notify(t('done.enabled', { username: user.username }));
    }
  };

  const confirm = () =>
    settle(async ({ kind, user }) => {
      const { id, username } = user;
      if (kind === 'disable' && (await run(id, () => update({ id, disabled: true }).unwrap()))) {
        notify(t('done.disabled', { username }));
      }
      if (kind === 'revoke' && (await run(id, () => revoke(id).unwrap()))) {
        notify(t('done.revoked', { username }));
      }
      if (kind === 'reset') {
        await run(id, async () => {
          setOneTime({ username, password: await reset(id).unwrap() });
        });
      }
    });

  return {
    ...rows,
    ask: (kind: ConfirmKind, user: ManagedUser) => {
      ask({ kind, user });
    },
    confirm,
    changeRole,
    enable,
    /** The one-time password to show, once. */
    oneTime,
    showOneTime: setOneTime,
    closeOneTime: () => {
      setOneTime(null);
    },
  };
}
