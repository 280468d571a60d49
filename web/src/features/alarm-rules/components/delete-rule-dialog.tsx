// The question before a rule is deleted: the alarms it matches are no
// longer sent.
import { useTranslation } from 'react-i18next';

import { ConfirmAboutDialog } from '../../../components/confirm-dialog.tsx';
import type { Rule } from '../api/rule-types.ts';

interface Props {
  pending: Rule | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function DeleteRuleDialog({ pending, ...actions }: Props) {
  const { t } = useTranslation('alarmRules');
  const { t: common } = useTranslation();
  return (
    <ConfirmAboutDialog
      about={pending}
      wordsOf={({ name }) => ({
        title: t('confirm.deleteTitle', { name }),
        text: t('confirm.deleteText'),
        confirmLabel: common('actions.delete'),
      })}
      {...actions}
    />
  );
}
