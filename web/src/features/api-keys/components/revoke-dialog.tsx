// The question before a key is revoked: programs using it are refused at
// once, and a revoked key cannot be used again.
import { useTranslation } from 'react-i18next';

import { ConfirmAboutDialog } from '../../../components/confirm-dialog.tsx';
import type { ApiKey } from '../api/api-keys-api.ts';

interface Props {
  pending: ApiKey | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function RevokeDialog({ pending, ...actions }: Props) {
  const { t } = useTranslation('apiKeys');
  return (
    <ConfirmAboutDialog
      about={pending}
      wordsOf={({ name, prefix }) => ({
        title: t('confirm.title', { name, prefix }),
        text: t('confirm.text', { name, prefix }),
        confirmLabel: t('actions.revoke'),
      })}
      {...actions}
    />
  );
}
