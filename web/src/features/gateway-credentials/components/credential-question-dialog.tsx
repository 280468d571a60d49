// The question before a credential is revoked (the gateway is refused and
// its connection closed at once) or rotated (the current one stops working).
import { useTranslation } from 'react-i18next';

import { ConfirmAboutDialog } from '../../../components/confirm-dialog.tsx';
import type { CredentialQuestion } from '../hooks/use-credential-actions.ts';

interface Props {
  pending: CredentialQuestion | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function CredentialQuestionDialog({ pending, ...actions }: Props) {
  const { t } = useTranslation('gatewayCredentials');
  return (
    <ConfirmAboutDialog
      about={pending}
      wordsOf={(question) =>
        question.act === 'revoke'
          ? { title: t('confirmRevoke.title'), text: t('confirmRevoke.text'), confirmLabel: t('actions.revoke') }
          : { title: t(`confirmRotate.title.${question.kind}`), text: t('confirmRotate.text'), confirmLabel: t('confirmRotate.confirm') }
      }
      {...actions}
    />
  );
}
