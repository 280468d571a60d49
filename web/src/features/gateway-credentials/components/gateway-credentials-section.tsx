// 'MQTT credentials' on the gateway page, for operators and admins: the
// credentials the gateway signs in to the broker with, newest first, with
// Issue (or Rotate) secret and certificate above; a new secret or key pair is
// shown once. A viewer sees no section, and nothing is asked of the server.
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { AdminList } from '../../../components/admin-page.tsx';
import { TableSection } from '../../../components/table-section.tsx';
import { useCan } from '../../../lib/permissions.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { credentialStatus } from '../api/credential-status.ts';
import { isIssuedSecret, useGatewayCredentialsQuery, type CredentialKind } from '../api/gateway-credentials-api.ts';
import { useCredentialActions } from '../hooks/use-credential-actions.ts';
import { CertificateIssuedDialog } from './certificate-issued-dialog.tsx';
import { CredentialQuestionDialog } from './credential-question-dialog.tsx';
import { CredentialsTable, type CredentialRow } from './credentials-table.tsx';
import { IssueButtons } from './issue-buttons.tsx';
import { SecretIssuedDialog } from './secret-issued-dialog.tsx';

export function GatewayCredentialsSection({ gatewayId }: { gatewayId: string }) {
  const allowed = useCan('changeDevices');
  return allowed ? <GatewayCredentials gatewayId={gatewayId} /> : null;
}

function GatewayCredentials({ gatewayId }: { gatewayId: string }) {
  const { t } = useTranslation('gatewayCredentials');
  const { data: credentials, error, isLoading, fulfilledTimeStamp } = useGatewayCredentialsQuery(gatewayId);
  const actions = useCredentialActions(gatewayId);
  useLoggedError(error, 'gateway credentials');

  // The statuses as of the list's reading, which each change repeats.
  const readAt = new Date(fulfilledTimeStamp ?? 0);
  const rows: CredentialRow[] = (credentials ?? []).map((credential) => ({ credential, status: credentialStatus(credential, readAt) }));
  const active = new Set<CredentialKind>(rows.filter((row) => row.status === 'active').map((row) => row.credential.kind));
  const { issued } = actions;

  const toolbar = (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('help')}
      </Typography>
      {credentials ? <IssueButtons active={active} working={actions.working} onIssue={actions.issue} /> : null}
    </Box>
  );
  return (
    <TableSection title={t('title')} loading={isLoading}>
      <AdminList
        error={error}
        notAllowed={t('notAllowed')}
        loadFailed={t('loadFailed')}
        toolbar={toolbar}
        refusal={{ message: actions.error, onClose: actions.clearError }}
        list={credentials ? <CredentialsTable rows={rows} working={actions.working} onRevoke={actions.revoke} /> : null}
      >
        <CredentialQuestionDialog
          pending={actions.pending}
          busy={actions.working !== null}
          onConfirm={actions.confirm}
          onClose={actions.cancel}
        />
        <SecretIssuedDialog issued={issued && isIssuedSecret(issued) ? issued : null} onClose={actions.forgetIssued} />
        <CertificateIssuedDialog issued={issued && !isIssuedSecret(issued) ? issued : null} onClose={actions.forgetIssued} />
      </AdminList>
    </TableSection>
  );
}
