// The server's refusal of an issue or a revocation in the user's language,
// as the section's alert: an unknown gateway or credential, a role that may
// not, or a failure.
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

import { refusalMessage } from '../../../lib/refusals.ts';

export function useCredentialProblem(): (error: unknown) => string {
  const { t } = useTranslation('gatewayCredentials');
  return useCallback(
    (error: unknown) =>
      refusalMessage(error, { byCode: { not_found: t('errors.notFound') }, forbidden: t('notAllowed'), failed: t('errors.failed') }),
    [t],
  );
}
