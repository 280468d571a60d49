// Issuing and revoking a gateway's credentials. A kind with no active
// credential is issued at once; one that would rotate an active credential,
// and any revocation, waits for its confirmation. What is being issued or
// revoked waits for the answer (`working`: the kind, or the credential's id);
// a refusal shows as the section's alert. A new secret or key pair is kept
// until its dialog is closed, then forgotten.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import { useRowActions } from '../../../lib/use-row-actions.ts';
import {
  useIssueGatewayCredentialMutation,
  useRevokeGatewayCredentialMutation,
  type Credential,
  type CredentialKind,
  type Issued,
} from '../api/gateway-credentials-api.ts';
import { useCredentialProblem } from './use-credential-problem.ts';

/** What waits for its confirmation. */
export type CredentialQuestion = { act: 'revoke'; credential: Credential } | { act: 'rotate'; kind: CredentialKind };

export function useCredentialActions(gatewayId: string) {
  const { t } = useTranslation('gatewayCredentials');
  const notify = useNotice();
  const [issue] = useIssueGatewayCredentialMutation();
  const [revoke] = useRevokeGatewayCredentialMutation();
  const { run, ask, confirm: settle, ...rows } = useRowActions<CredentialQuestion>(useCredentialProblem());
  const [issued, setIssued] = useState<Issued | null>(null);

  /** Issues `kind`: the new credential, or null when refused. */
  const issueKind = async (kind: CredentialKind): Promise<Issued | null> => {
    const answer: { issued: Issued | null } = { issued: null };
    await run(kind, async () => {
      answer.issued = await issue({ gatewayId, kind }).unwrap();
    });
    return answer.issued;
  };

  const revokeOne = async (credential: Credential) => {
    if (await run(credential.id, () => revoke({ gatewayId, credentialId: credential.id }).unwrap())) notify(t('done.revoked'));
  };

  /** Issues `kind` at once, or asks first when it rotates an active credential. */
  const start = async (kind: CredentialKind, rotates: boolean) => {
    if (rotates) {
      ask({ act: 'rotate', kind });
      return;
    }
    setIssued(await issueKind(kind));
  };

  /** Does what was asked; the question closes before a new credential shows. */
  const confirm = async () => {
    const answer: { issued: Issued | null } = { issued: null };
    await settle(async (question) => {
      if (question.act === 'revoke') await revokeOne(question.credential);
      else answer.issued = await issueKind(question.kind);
    });
    if (answer.issued) setIssued(answer.issued);
  };

  return {
    ...rows,
    issue: (kind: CredentialKind, rotates: boolean) => void start(kind, rotates),
    revoke: (credential: Credential) => {
      ask({ act: 'revoke', credential });
    },
    confirm: () => void confirm(),
    /** The credential just issued, with its secret or key pair. */
    issued,
    forgetIssued: () => {
      setIssued(null);
    },
  };
}
