// A one-time password, shown once (a new user's or a reset's), in the
// shared dialog of secrets shown once.
import { useTranslation } from 'react-i18next';

import { SecretDialog } from '../../../components/secret-dialog.tsx';
import type { OneTime } from '../hooks/use-user-actions.ts';

interface Props {
  oneTime: OneTime | null;
  onClose: () => void;
}

export function OneTimePasswordDialog({ oneTime, onClose }: Props) {
  const { t } = useTranslation('users');
  return (
    <SecretDialog
      shown={oneTime}
      secretOf={(shown) => shown.password}
      wordsOf={({ username }) => ({
        title: t('oneTime.title', { username }),
        text: t('oneTime.text', { username }),
        label: t('oneTime.label'),
        copy: t('oneTime.copy'),
        copied: t('oneTime.copied'),
        copyFailed: t('oneTime.copyFailed'),
        done: t('oneTime.done'),
      })}
      onClose={onClose}
    />
  );
}
