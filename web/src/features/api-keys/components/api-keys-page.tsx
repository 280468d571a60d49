// API keys (/admin/api-keys, admins only): the keys programs use instead of
// signing in, newest first, each with its status, expiry and last use; New
// API key above, its secret shown once; Revoke once confirmed. Another role
// is told it may not, and nothing is asked.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { isForbidden } from '../../../lib/api.ts';
import { useCan } from '../../../lib/permissions.ts';
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
  const canManage = useCan('manageApiKeys');
  return (
    <Box component="section" aria-labelledby="api-keys-title">
      <Typography id="api-keys-title" variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('title')}
      </Typography>
      {canManage ? <ApiKeyManagement /> : <Alert severity="info">{t('notAllowed')}</Alert>}
    </Box>
  );
}

function ApiKeyManagement() {
  const { t } = useTranslation('apiKeys');
  const { data: keys, error, isLoading } = useApiKeysQuery(undefined);
  const revoke = useRevoke();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  useLoggedError(error, 'API keys');

  if (error && isForbidden(error)) return <Alert severity="info">{t('notAllowed')}</Alert>;
  return (
    <>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start' }}>
        <Box sx={{ flex: 1, minWidth: 240 }}>
          <ApiKeyHelp />
        </Box>
        <Button variant="contained" onClick={() => { setCreating(true); }} sx={{ mb: 2 }}>
          {t('newKey')}
        </Button>
      </Box>
      {revoke.error ? (
        <Alert severity="error" onClose={revoke.clearError} sx={{ mb: 2 }}>
          {revoke.error}
        </Alert>
      ) : null}
      {error ? (
        <Typography color="error" role="alert" sx={{ mb: 1 }}>
          {t('loadFailed')}
        </Typography>
      ) : null}
      {isLoading ? null : <ApiKeysTable keys={keys ?? []} working={revoke.busy ? (revoke.pending?.id ?? null) : null} onRevoke={revoke.ask} />}
      <NewApiKeyDialog
        open={creating}
        onClose={() => { setCreating(false); }}
        onCreated={(answer) => {
          setCreating(false);
          setCreated(answer);
        }}
      />
      <RevokeDialog pending={revoke.pending} busy={revoke.busy} onConfirm={() => void revoke.confirm()} onClose={revoke.cancel} />
      <ApiKeySecretDialog created={created} onClose={() => { setCreated(null); }} />
    </>
  );
}
