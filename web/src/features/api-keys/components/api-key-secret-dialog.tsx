// A new key's secret, shown once with a copy button and a warning that it
// cannot be shown again (the server keeps only its hash).
import { useTranslation } from 'react-i18next';

import { SecretDialog } from '../../../components/secret-dialog.tsx';
import type { CreatedApiKey } from '../api/api-keys-api.ts';

interface Props {
  created: CreatedApiKey | null;
  onClose: () => void;
}

export function ApiKeySecretDialog({ created, onClose }: Props) {
  const { t } = useTranslation('apiKeys');
  return (
    <SecretDialog
      shown={created}
      secretOf={(shown) => shown.secret}
      wordsOf={({ key }) => ({
        title: t('secret.title', { name: key.name }),
        text: t('secret.text', { header: t('help.header') }),
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
