// API keys (/admin/api-keys, admins only): the keys programs use instead of
// signing in, newest first, each with its status, expiry and last use; New
// API key above, its secret shown once; Revoke once confirmed. Another role
// is told it may not, and nothing is asked.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { AdminList, AdminPage } from '../../../components/admin-page.tsx';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useApiKeysQuery, type CreatedApiKey } from '../api/api-keys-api.ts';
import { useRevoke } from '../hooks/use-revoke.ts';
import { ApiKeyHelp } from './api-key-help.tsx';
import { ApiKeySecretDialog } from './api-key-secret-dialog.tsx';
import { ApiKeysTable } from './api-keys-table.tsx';
import { NewApiKeyDialog } from './new-api-key-dialog.tsx';
import { RevokeDialog } from './revoke-dialog.tsx';

export default function ApiKeysPage() {
  const { t } = useTranslation('apiKeys');
  return (
    <AdminPage title={t('title')} permission="manageApiKeys" notAllowed={t('notAllowed')}>
      <ApiKeyManagement />
    </AdminPage>
  );
}

function ApiKeyManagement() {
  const { t } = useTranslation('apiKeys');
  const { data: keys, error, isLoading } = useApiKeysQuery(undefined);
  const revoke = useRevoke();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  useLoggedError(error, 'API keys');

  const toolbar = (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
      <Box sx={{ flex: 1, minWidth: 240 }}>
        <ApiKeyHelp />
      </Box>
      <Button variant="contained" onClick={() => { setCreating(true); }} sx={{ mb: 2 }}>
        {t('newKey')}
      </Button>
    </Box>
  );
  return (
    <AdminList
      error={error}
      notAllowed={t('notAllowed')}
      loadFailed={t('loadFailed')}
      loading={isLoading}
      toolbar={toolbar}
      refusal={{ message: revoke.error, onClose: revoke.clearError }}
      list={<ApiKeysTable keys={keys ?? []} working={revoke.working} onRevoke={revoke.ask} />}
    >
      <NewApiKeyDialog
        open={creating}
        onClose={() => { setCreating(false); }}
        onCreated={(answer) => {
          setCreating(false);
          setCreated(answer);
        }}
      />
      <RevokeDialog pending={revoke.pending} busy={revoke.working !== null} onConfirm={() => void revoke.confirm()} onClose={revoke.cancel} />
      <ApiKeySecretDialog created={created} onClose={() => { setCreated(null); }} />
    </AdminList>
  );
}
