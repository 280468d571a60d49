// A gateway's MQTT credentials as a table, newest first: each one's kind,
// username, fingerprint (a certificate's), creation, expiry and status;
// Revoke asks first, and only an active credential offers it.
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useTranslation } from 'react-i18next';

import { ListTable } from '../../../components/list-table.tsx';
import { useTimestamp } from '../../../components/use-timestamp.ts';
import type { CredentialStatus } from '../api/credential-status.ts';
import type { Credential } from '../api/gateway-credentials-api.ts';

/** A credential and its status when the list was read. */
export interface CredentialRow {
  credential: Credential;
  status: CredentialStatus;
}

interface Props {
  rows: readonly CredentialRow[];
  /** The credential being revoked: its Revoke waits. */
  working: string | null;
  onRevoke: (credential: Credential) => void;
}

const COLUMNS = ['kind', 'username', 'fingerprint', 'created', 'expires', 'status', 'actions'] as const;

const STATUS_COLOUR: Record<CredentialStatus, 'success' | 'default' | 'error'> = {
  active: 'success',
  expired: 'default',
  revoked: 'error',
};

export function CredentialsTable({ rows, working, onRevoke }: Props) {
  const { t } = useTranslation('gatewayCredentials');
  return (
    <ListTable
      label={t('table.label')}
      headers={COLUMNS.map((column) => t(`table.${column}`))}
      items={rows}
      empty={t('table.empty')}
      row={(row) => (
        <CredentialTableRow key={row.credential.id} {...row} busy={row.credential.id === working} onRevoke={onRevoke} />
      )}
    />
  );
}

interface RowProps extends CredentialRow {
  busy: boolean;
  onRevoke: (credential: Credential) => void;
}

function CredentialTableRow({ credential, status, busy, onRevoke }: RowProps) {
  const { t } = useTranslation('gatewayCredentials');
  const timestamp = useTimestamp();
  const none = t('none');
  return (
    <TableRow data-testid={`credential-${credential.id}`}>
      <TableCell>{t(`kinds.${credential.kind}`)}</TableCell>
      <TableCell sx={{ fontFamily: 'monospace', whiteSpace: 'nowrap' }}>{credential.username}</TableCell>
      <TableCell sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere', minWidth: 160 }}>{credential.fingerprint ?? none}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{timestamp(credential.createdAt)}</TableCell>
      <TableCell sx={{ whiteSpace: 'nowrap' }}>{timestamp(credential.expiresAt, none)}</TableCell>
      <TableCell>
        <Chip size="small" variant="outlined" color={STATUS_COLOUR[status]} label={t(`status.${status}`)} />
      </TableCell>
      <TableCell>
        {status === 'active' ? (
          <Button
            size="small"
            variant="outlined"
            color="error"
            loading={busy}
            aria-label={t(`actions.revokeOf.${credential.kind}`, { at: timestamp(credential.createdAt) })}
            onClick={() => {
              onRevoke(credential);
            }}
          >
            {t('actions.revoke')}
          </Button>
        ) : null}
      </TableCell>
    </TableRow>
  );
}
