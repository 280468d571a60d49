// How a rule sends: by email to its recipients, or to a webhook's URL,
// signed with its secret.
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import type { RuleDraft } from '../api/rule-draft.ts';
import type { ChannelKind } from '../api/rule-types.ts';
import type { RuleErrors } from '../hooks/use-rule-errors.ts';
import type { ChangeDraft } from '../hooks/use-rule-form.ts';
import { ChipsField } from './chips-field.tsx';
import { SecretField } from './secret-field.tsx';

interface Props {
  draft: RuleDraft;
  errors: RuleErrors;
  change: ChangeDraft;
}

const KINDS: readonly ChannelKind[] = ['email', 'webhook'];

export function RuleChannelFields({ draft, errors, change }: Props) {
  const { t } = useTranslation('alarmRules');
  const id = useId();
  return (
    <>
      <FormControl component="fieldset" margin="normal" fullWidth>
        <FormLabel component="legend" id={id}>
          {t('dialog.channel')}
        </FormLabel>
        <RadioGroup
          row
          aria-labelledby={id}
          value={draft.kind}
          onChange={(event) => {
            change({ kind: KINDS.find((kind) => kind === event.target.value) ?? draft.kind }, 'channel.to', 'channel.url', 'channel.secret');
          }}
        >
          {KINDS.map((kind) => (
            <FormControlLabel key={kind} value={kind} control={<Radio />} label={t(`dialog.kinds.${kind}`)} />
          ))}
        </RadioGroup>
      </FormControl>
      {draft.kind === 'email' ? (
        <ChipsField
          label={t('dialog.to')}
          values={draft.to}
          onChange={(to) => {
            change({ to }, 'channel.to');
          }}
          error={errors['channel.to']}
          hint={t('dialog.toHint')}
          required
        />
      ) : (
        <>
          <TextField
            type="url"
            label={t('dialog.url')}
            value={draft.url}
            onChange={(event) => {
              change({ url: event.target.value }, 'channel.url');
            }}
            error={errors['channel.url'] !== undefined}
            helperText={errors['channel.url'] ?? t('dialog.urlHint')}
            autoComplete="off"
            required
            fullWidth
            margin="normal"
          />
          <SecretField
            value={draft.secret}
            secretSet={draft.secretSet}
            error={errors['channel.secret']}
            onChange={(secret) => {
              change({ secret }, 'channel.secret');
            }}
          />
        </>
      )}
    </>
  );
}
