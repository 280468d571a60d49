// The server's refusals in the user's language: a code as a sentence for the
// page's or the dialog's alert, and a 400's fields, each field's rule as the
// server states it, for the messages under the New API key fields.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import { API_KEY_MAX_DAYS, API_KEY_NAME_MAX_CHARS } from '../../../lib/constants.ts';
import { namedFieldErrors, refusalMessage, type FieldErrors } from '../../../lib/refusals.ts';

export const NEW_API_KEY_FIELDS = ['name', 'role', 'expiresAt'] as const;
export type NewApiKeyField = (typeof NEW_API_KEY_FIELDS)[number];
export type NewApiKeyErrors = FieldErrors<NewApiKeyField>;

export function useApiKeyErrors() {
  const { t } = useTranslation('apiKeys');

  /** The alert for a refused creation or revocation. */
  const problem = useCallback(
    (error: unknown): string =>
      refusalMessage(error, { byCode: { not_found: t('errors.notFound') }, forbidden: t('notAllowed'), failed: t('errors.failed') }),
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
    (error: unknown): NewApiKeyErrors => namedFieldErrors(error, NEW_API_KEY_FIELDS, rules()),
    [rules],
  );

  return { problem, rules, fields };
}
