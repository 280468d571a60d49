// Revoking a key, once confirmed: the key asked about waits for the answer;
// a refusal shows as the page's alert.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import { isCancelled } from '../../../lib/api.ts';
import { useRevokeApiKeyMutation, type ApiKey } from '../api/api-keys-api.ts';
import { useApiKeyErrors } from './use-api-key-errors.ts';

export function useRevoke() {
  const { t } = useTranslation('apiKeys');
  const notify = useNotice();
  const { problem } = useApiKeyErrors();
  const [revoke, { isLoading }] = useRevokeApiKeyMutation();
  const [pending, setPending] = useState<ApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);

  const confirm = async () => {
    if (!pending) return;
    setError(null);
    try {
      await revoke(pending.id).unwrap();
      notify(t('done.revoked', { name: pending.name }));
    } catch (failure) {
      if (!isCancelled(failure)) setError(problem(failure));
    }
    setPending(null);
  };

  return {
    /** The key waiting for the confirmation of its revocation. */
    pending,
    ask: setPending,
    cancel: () => {
      setPending(null);
    },
    confirm,
    busy: isLoading,
    error,
    clearError: () => {
      setError(null);
    },
  };
}
