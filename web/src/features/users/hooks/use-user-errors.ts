// The server's refusals in the user's language: a 409's code (last_admin,
// own_account, already_in_use) as a sentence, and a 400's fields, each
// field's rule as the server states it.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import { errorCode, errorFields, isForbidden } from '../../../lib/api.ts';
import { MAX_PASSWORD_CHARS, MAX_USERNAME_CHARS, MIN_PASSWORD_CHARS } from '../../../lib/constants.ts';

export const NEW_USER_FIELDS = ['username', 'role', 'password'] as const;
export type NewUserField = (typeof NEW_USER_FIELDS)[number];
export type NewUserErrors = Partial<Record<NewUserField, string>>;

export function useUserErrors() {
  const { t } = useTranslation('users');

  /** The alert for a refused change. */
  const problem = useCallback(
    (error: unknown): string => {
      switch (errorCode(error)) {
        case 'last_admin':
          return t('errors.lastAdmin');
        case 'own_account':
          return t('errors.ownAccount');
        case 'already_in_use':
          return t('errors.alreadyInUse');
        case 'not_found':
          return t('errors.notFound');
        default:
          return isForbidden(error) ? t('errors.forbidden') : t('errors.failed');
      }
    },
    [t],
  );

  /** The messages under the new user's fields, for the fields the server named. */
  const fields = useCallback(
    (error: unknown): NewUserErrors => {
      const named = errorFields(error);
      const texts: Record<NewUserField, string> = {
        username: t('fields.username', { max: MAX_USERNAME_CHARS }),
        role: t('fields.role'),
        password: t('fields.password', { min: MIN_PASSWORD_CHARS, max: MAX_PASSWORD_CHARS }),
      };
      return Object.fromEntries(NEW_USER_FIELDS.filter((field) => field in named).map((field) => [field, texts[field]]));
    },
    [t],
  );

  return { problem, fields };
}
