// The server's refusals in the user's language: a 409's code (last_admin,
// own_account, already_in_use) as a sentence, and a 400's fields, each
// field's rule as the server states it.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import { MAX_PASSWORD_CHARS, MAX_USERNAME_CHARS, MIN_PASSWORD_CHARS } from '../../../lib/constants.ts';
import { namedFieldErrors, refusalMessage, type FieldErrors } from '../../../lib/refusals.ts';

export const NEW_USER_FIELDS = ['username', 'role', 'password'] as const;
export type NewUserField = (typeof NEW_USER_FIELDS)[number];
export type NewUserErrors = FieldErrors<NewUserField>;

export function useUserErrors() {
  const { t } = useTranslation('users');

  /** The alert for a refused change. */
  const problem = useCallback(
    (error: unknown): string =>
      refusalMessage(error, {
        byCode: {
          last_admin: t('errors.lastAdmin'),
          own_account: t('errors.ownAccount'),
          already_in_use: t('errors.alreadyInUse'),
          not_found: t('errors.notFound'),
        },
        forbidden: t('errors.forbidden'),
        failed: t('errors.failed'),
      }),
    [t],
  );

  /** The messages under the new user's fields, for the fields the server named. */
  const fields = useCallback(
    (error: unknown): NewUserErrors => {
      const texts: Record<NewUserField, string> = {
        username: t('fields.username', { max: MAX_USERNAME_CHARS }),
        role: t('fields.role'),
        password: t('fields.password', { min: MIN_PASSWORD_CHARS, max: MAX_PASSWORD_CHARS }),
      };
      return namedFieldErrors(error, NEW_USER_FIELDS, texts);
    },
    [t],
  );

  return { problem, fields };
}
