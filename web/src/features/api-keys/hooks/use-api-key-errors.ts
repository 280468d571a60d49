// The server's refusals in the user's language: a code as a sentence for the
// page's or the dialog's alert, and a 400's fields, each field's rule as the
// server states it, for the messages under the New API key fields.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import { errorCode, errorFields, isForbidden } from '../../../lib/api.ts';
import { API_KEY_MAX_DAYS, API_KEY_NAME_MAX_CHARS } from '../../../lib/constants.ts';

export const NEW_API_KEY_FIELDS = ['name', 'role', 'expiresAt'] as const;
export type NewApiKeyField = (typeof NEW_API_KEY_FIELDS)[number];
export type NewApiKeyErrors = Partial<Record<NewApiKeyField, string>>;

export function useApiKeyErrors() {
  const { t } = useTranslation('apiKeys');

  /** The alert for a refused creation or revocation. */
  const problem = useCallback(
    (error: unknown): string => {
      if (errorCode(error) === 'not_found') return t('errors.notFound');
      return isForbidden(error) ? t('notAllowed') : t('errors.failed');
    },
    [t],
  );

  /** The rule of each field, as the dialog checks it and the server states it. */
  const rules = useCallback(
    (): Record<NewApiKeyField, string> => ({
      name: t('fields.name', { max: API_KEY_NAME_MAX_CHARS }),
      role: t('fields.role'),
      expiresAt: t('fields.expiresAt', { max: API_KEY_MAX_DAYS }),
    }),
    [t],
  );

  /** The messages under the fields the server named. */
  const fields = useCallback(
    (error: unknown): NewApiKeyErrors => {
      const named = errorFields(error);
      const texts = rules();
      return Object.fromEntries(NEW_API_KEY_FIELDS.filter((field) => field in named).map((field) => [field, texts[field]]));
    },
    [rules],
  );

  return { problem, rules, fields };
}
