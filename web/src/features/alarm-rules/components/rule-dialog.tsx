// New or edited alarm rule: its name, whether it is on, what it matches, how
// it sends and its group window. The form is mounted at each opening (the
// dialog drops it once closed), so it starts from the rule edited, or empty.
import Dialog from '@mui/material/Dialog';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { DialogForm } from '../../../components/form-dialog.tsx';
import { GROUP_WINDOW_SECS } from '../../../lib/constants.ts';
import type { Rule } from '../api/rule-types.ts';
import { useRuleForm } from '../hooks/use-rule-form.ts';
import { RuleChannelFields } from './rule-channel-fields.tsx';
import { RuleMatchFields } from './rule-match-fields.tsx';

/** The rule being edited, or `new`; null when closed. */
export type Editing = Rule | 'new' | null;

interface Props {
  editing: Editing;
  onClose: () => void;
  onSaved: (saved: Rule, created: boolean) => void;
}

export function RuleDialog({ editing, onClose, onSaved }: Props) {
  const { t } = useTranslation('alarmRules');
  const titleId = useId();
  // The title stays worded while the dialog fades out.
  const [shown, setShown] = useState(editing);
  if (editing !== null && editing !== shown) setShown(editing);
  const rule = shown === 'new' ? null : shown;
  return (
    <Dialog open={editing !== null} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{rule ? t('dialog.editTitle', { name: rule.name }) : t('dialog.newTitle')}</DialogTitle>
      {shown === null ? null : (
        <RuleForm
          key={rule?.id ?? 'new'}
          rule={rule}
          titleId={titleId}
          onClose={onClose}
          onSaved={(saved) => {
            onSaved(saved, rule === null);
          }}
        />
      )}
    </Dialog>
  );
}

interface FormProps {
  rule: Rule | null;
  titleId: string;
  onClose: () => void;
  onSaved: (saved: Rule) => void;
}

function RuleForm({ rule, titleId, onClose, onSaved }: FormProps) {
  const { t } = useTranslation('alarmRules');
  const { t: common } = useTranslation();
  const { draft, change, errors, problem, submit, busy } = useRuleForm(rule, onSaved);
  return (
    <DialogForm
      titleId={titleId}
      submitLabel={rule ? common('actions.save') : t('dialog.create')}
      busy={busy}
      problem={problem}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <TextField
        label={t('dialog.name')}
        value={draft.name}
        onChange={(event) => {
          change({ name: event.target.value }, 'name');
        }}
        error={errors.name !== undefined}
        helperText={errors.name}
        autoComplete="off"
        autoFocus
        required
        fullWidth
        margin="normal"
      />
      <FormControlLabel
        control={
          <Switch
            checked={draft.enabled}
            onChange={(event) => {
              change({ enabled: event.target.checked });
            }}
          />
        }
        label={t('dialog.enabled')}
      />
      <RuleMatchFields draft={draft} errors={errors} change={change} />
      <RuleChannelFields draft={draft} errors={errors} change={change} />
      <TextField
        type="number"
        label={t('dialog.groupWindow')}
        value={draft.groupWindow}
        onChange={(event) => {
          change({ groupWindow: event.target.value }, 'groupWindowSecs');
        }}
        error={errors.groupWindowSecs !== undefined}
        helperText={errors.groupWindowSecs ?? t('dialog.groupWindowHint')}
        required
        fullWidth
        margin="normal"
        slotProps={{ htmlInput: { ...GROUP_WINDOW_SECS, step: 1, inputMode: 'numeric' } }}
      />
    </DialogForm>
  );
}
