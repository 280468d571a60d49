// Revoking a key, once confirmed: the key asked about waits for the answer;
// a refusal shows as the page's alert.
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import { useRowActions } from '../../../lib/use-row-actions.ts';
import { useRevokeApiKeyMutation, type ApiKey } from '../api/api-keys-api.ts';
import { useApiKeyErrors } from './use-api-key-errors.ts';

export function useRevoke() {
  const { t } = useTranslation('apiKeys');
  const notify = useNotice();
  const { problem } = useApiKeyErrors();
  const [revoke] = useRevokeApiKeyMutation();
  const { run, confirm: settle, ...rows } = useRowActions<ApiKey>(problem);

  const confirm = () =>
    settle(async (key) => {
      if (await run(key.id, () => revoke(key.id).unwrap())) notify(t('done.revoked', { name: key.name }));
    });

  return { ...rows, confirm };
}
