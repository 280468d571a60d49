// A new MQTT secret, shown once beside the username it goes with, each with
// a copy button, and a warning that it cannot be shown again (the server
// keeps only its hash).
import { useTranslation } from 'react-i18next';

import { SecretDialog } from '../../../components/secret-dialog.tsx';
import type { IssuedSecret } from '../api/gateway-credentials-api.ts';

interface Props {
  issued: IssuedSecret | null;
  onClose: () => void;
}

export function SecretIssuedDialog({ issued, onClose }: Props) {
  const { t } = useTranslation('gatewayCredentials');
  return (
    <SecretDialog
      shown={issued}
      secretOf={(shown) => shown.secret}
      detailsOf={({ credential }) => [
        { label: t('secret.username'), value: credential.username, copy: t('secret.copyUsername'), copied: t('secret.usernameCopied') },
      ]}
      wordsOf={({ credential }) => ({
        title: t('secret.title', { username: credential.username }),
        text: t('secret.text'),
        warning: t('secret.warning'),
        label: t('secret.label'),
        copy: t('secret.copy'),
        copied: t('secret.copied'),
        copyFailed: t('secret.copyFailed'),
        done: t('secret.done'),
      })}
      onClose={onClose}
    />
  );
}
