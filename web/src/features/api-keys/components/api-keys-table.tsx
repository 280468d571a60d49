// The API keys as a table, like the users': each key's name, prefix (the
// start of the key, to recognise it), role, status, expiry, last use (when
// and from where) and creation; Revoke asks first, and a revoked key offers
// none.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';

import { ListTable } from '../../../components/list-table.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import { isRole } from '../../../lib/permissions.ts';
import type { ApiKey, ApiKeyStatus } from '../api/api-keys-api.ts';

interface Props {
  keys: readonly ApiKey[];
  /** The key being revoked: its Revoke waits. */
  working: string | null;
  onRevoke: (key: ApiKey) => void;
}

const COLUMNS = ['name', 'prefix', 'role', 'status', 'expires', 'lastUsed', 'created', 'actions'] as const;

const STATUS_COLOUR: Record<ApiKeyStatus, 'success' | 'default' | 'error'> = {
  active: 'success',
  expired: 'default',
  revoked: 'error',
};

export function ApiKeysTable({ keys, working, onRevoke }: Props) {
  const { t } = useTranslation('apiKeys');
  return (
    <ListTable
      label={t('table.label')}
      headers={COLUMNS.map((column) => t(`table.${column}`))}
      items={keys}
      empty={t('table.empty')}
      row={(key) => <ApiKeyRow key={key.id} apiKey={key} busy={key.id === working} onRevoke={onRevoke} />}
    />
  );
}

function ApiKeyRow({ apiKey, busy, onRevoke }: { apiKey: ApiKey; busy: boolean; onRevoke: (key: ApiKey) => void }) {
  const { t } = useTranslation('apiKeys');
  const { t: common } = useTranslation();
  const timestamp = useTimestamp();
  const { name, status, lastUsedAt, lastUsedAddress } = apiKey;
  const lastUsed = lastUsedAt && lastUsedAddress ? t('table.usedFrom', { at: timestamp(lastUsedAt), address: lastUsedAddress }) : timestamp(lastUsedAt);
  return (
    <TableRow data-testid={`api-key-${apiKey.id}`}>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>{name}</TableCell>
      <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{apiKey.prefix}</TableCell>
      <TableCell>{isRole(apiKey.role) ? common(`roles.${apiKey.role}`) : apiKey.role}</TableCell>
      <TableCell>
        <Chip size="small" variant="outlined" color={STATUS_COLOUR[status]} label={t(`status.${status}`)} />
      </TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{timestamp(apiKey.expiresAt)}</TableCell>
      <TableCell sx={{ overflowWrap: 'anywhere' }}>{lastUsed}</TableCell>
      <TableCell>{t('table.createdBy', { at: timestamp(apiKey.createdAt), username: apiKey.createdBy })}</TableCell>
      <TableCell>
        <Box sx={{ display: 'flex' }}>
          <Button
            size="small"
            variant="outlined"
            color="error"
            disabled={status === 'revoked' || busy}
            aria-label={t('actions.revokeOf', { name })}
            onClick={() => {
              onRevoke(apiKey);
            }}
          >
            {t('actions.revoke')}
          </Button>
        </Box>
      </TableCell>
    </TableRow>
  );
}
