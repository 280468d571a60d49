// The question before a rule is deleted: the alarms it matches are no
// longer sent.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import type { Rule } from '../api/rule-types.ts';

interface Props {
  pending: Rule | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

export function DeleteRuleDialog({ pending, busy, onConfirm, onClose }: Props) {
  const { t } = useTranslation('alarmRules');
  const { t: common } = useTranslation();
  // The question stays worded while the dialog fades out.
  const [last, setLast] = useState(pending);
  if (pending !== null && pending !== last) setLast(pending);
  return (
    <ConfirmDialog
      open={pending !== null}
      title={t('confirm.deleteTitle', { name: last?.name ?? '' })}
      text={t('confirm.deleteText')}
      confirmLabel={common('actions.delete')}
      busy={busy}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
