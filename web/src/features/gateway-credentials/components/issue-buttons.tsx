// Issue secret and Issue certificate, each read Rotate … when the gateway
// already has an active credential of that kind: issuing one revokes it.
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';

import { CREDENTIAL_KINDS, type CredentialKind } from '../api/gateway-credentials-api.ts';

interface Props {
  /** The kinds with an active credential. */
  active: ReadonlySet<CredentialKind>;
  /** What is being issued or revoked: every button waits. */
  working: string | null;
  onIssue: (kind: CredentialKind, rotates: boolean) => void;
}

export function IssueButtons({ active, working, onIssue }: Props) {
  const { t } = useTranslation('gatewayCredentials');
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }}>
      {CREDENTIAL_KINDS.map((kind) => {
        const rotates = active.has(kind);
        return (
          <Button
            key={kind}
            variant="contained"
            loading={working === kind}
            disabled={working !== null && working !== kind}
            onClick={() => {
              onIssue(kind, rotates);
            }}
          >
            {rotates ? t(`actions.rotate.${kind}`) : t(`actions.issue.${kind}`)}
          </Button>
        );
      })}
    </Box>
  );
}
