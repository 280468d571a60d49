// What an admin does to a listed user: a role or an enable at once; a
// disable, a password reset or a revocation once confirmed. A refusal shows
// as the page's alert; a reset's one-time password in its dialog, once.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import { isCancelled } from '../../../lib/api.ts';
import type { Role } from '../../../lib/permissions.ts';
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
  const [pending, setPending] = useState<Pending | null>(null);
  const [working, setWorking] = useState<string | null>(null);
  const [oneTime, setOneTime] = useState<OneTime | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** Runs one change of `user`; true when it was made. */
  const run = async (user: ManagedUser, change: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    setWorking(user.id);
    try {
      await change();
      return true;
    } catch (failure) {
      if (!isCancelled(failure)) setError(problem(failure));
      return false;
    } finally {
      setWorking(null);
    }
  };

  const changeRole = async (user: ManagedUser, role: Role) => {
    if (role === user.role) return;
    if (await run(user, () => update({ id: user.id, role }).unwrap())) {
      notify(t('done.role', { username: user.username, role: common(`roles.${role}`) }));
    }
  };

  const enable = async (user: ManagedUser) => {
    if (await run(user, () => update({ id: user.id, disabled: false }).unwrap())) {
      notify(t('done.enabled', { username: user.username }));
    }
  };

  const confirm = async () => {
    if (!pending) return;
    const { kind, user } = pending;
    const { username } = user;
    if (kind === 'disable' && (await run(user, () => update({ id: user.id, disabled: true }).unwrap()))) {
      notify(t('done.disabled', { username }));
    }
    if (kind === 'revoke' && (await run(user, () => revoke(user.id).unwrap()))) {
      notify(t('done.revoked', { username }));
    }
    if (kind === 'reset') {
      await run(user, async () => {
        setOneTime({ username, password: await reset(user.id).unwrap() });
      });
    }
    setPending(null);
  };

  return {
    /** The change waiting for its confirmation. */
    pending,
    ask: (kind: ConfirmKind, user: ManagedUser) => {
      setPending({ kind, user });
    },
    cancel: () => {
      setPending(null);
    },
    confirm,
    /** The id of the user being changed. */
    working,
    changeRole,
    enable,
    /** The one-time password to show, once. */
    oneTime,
    showOneTime: setOneTime,
    closeOneTime: () => {
      setOneTime(null);
    },
    error,
    clearError: () => {
      setError(null);
    },
  };
}
