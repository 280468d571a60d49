// The question before a key is revoked: programs using it are refused at
// once, and a revoked key cannot be used again.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import type { ApiKey } from '../api/api-keys-api.ts';

interface Props {
  pending: ApiKey | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function RevokeDialog({ pending, busy, onConfirm, onClose }: Props) {
  const { t } = useTranslation('apiKeys');
  // The question stays worded while the dialog fades out.
  const [last, setLast] = useState(pending);
  if (pending !== null && pending !== last) setLast(pending);
  const words = { name: last?.name ?? '', prefix: last?.prefix ?? '' };
  return (
    <ConfirmDialog
      open={pending !== null}
      title={t('confirm.title', words)}
      text={t('confirm.text', words)}
      confirmLabel={t('actions.revoke')}
      busy={busy}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
