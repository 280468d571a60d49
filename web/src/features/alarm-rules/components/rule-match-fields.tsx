// What a rule matches: alarm types (suggested, or typed), severities (chips
// to press) and devices (all, a list of ids, or a gateway and its meters).
// Nothing chosen among types or severities matches any.
import CheckIcon from '../../../components/icons/check';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import type { RuleDraft } from '../api/rule-draft.ts';
import { ALARM_TYPE_SUGGESTIONS, SEVERITIES, type DeviceScope, type Severity } from '../api/rule-types.ts';
import type { RuleErrors } from '../hooks/use-rule-errors.ts';
import type { ChangeDraft } from '../hooks/use-rule-form.ts';
import { useRuleWords } from '../hooks/use-rule-words.ts';
import { ChipsField } from './chips-field.tsx';

interface Props {
  draft: RuleDraft;
  errors: RuleErrors;
  change: ChangeDraft;
}

const SCOPES: readonly DeviceScope[] = ['all', 'list', 'gateway'];

export function RuleMatchFields({ draft, errors, change }: Props) {
  const { t } = useTranslation('alarmRules');
  const words = useRuleWords();
  return (
    <>
      <ChipsField
        label={t('dialog.types')}
        values={draft.types}
        suggestions={ALARM_TYPE_SUGGESTIONS}
        labelOf={words.type}
        onChange={(types) => {
          change({ types }, 'match.types');
        }}
        error={errors['match.types']}
        hint={t('dialog.typesHint')}
      />
      <SeverityChoice
        chosen={draft.severities}
        error={errors['match.severities']}
        onChange={(severities) => {
          change({ severities }, 'match.severities');
        }}
      />
      <DeviceChoice draft={draft} errors={errors} change={change} />
    </>
  );
}

function SeverityChoice({ chosen, error, onChange }: { chosen: Severity[]; error: string | undefined; onChange: (severities: Severity[]) => void }) {
  const { t } = useTranslation('alarmRules');
  const words = useRuleWords();
  const id = useId();
  return (
    <FormControl component="fieldset" margin="normal" fullWidth error={error !== undefined}>
      <FormLabel component="legend" id={id}>
        {t('dialog.severities')}
      </FormLabel>
      <Box role="group" aria-labelledby={id} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }}>
        {SEVERITIES.map((severity) => {
          const on = chosen.includes(severity);
          return (
            <Chip
              key={severity}
              label={words.severity(severity)}
              icon={on ? <CheckIcon /> : undefined}
              color={on ? 'primary' : 'default'}
              variant={on ? 'filled' : 'outlined'}
              aria-pressed={on}
              onClick={() => {
                onChange(SEVERITIES.filter((each) => (each === severity ? !on : chosen.includes(each))));
              }}
            />
          );
        })}
      </Box>
      <FormHelperText sx={{ mx: 0 }}>{error ?? t('dialog.severitiesHint')}</FormHelperText>
    </FormControl>
  );
}

function DeviceChoice({ draft, errors, change }: Props) {
  const { t } = useTranslation('alarmRules');
  const id = useId();
  const error = errors['match.devices'];
  return (
    <FormControl component="fieldset" margin="normal" fullWidth error={error !== undefined && draft.scope === 'all'}>
      <FormLabel component="legend" id={id}>
        {t('dialog.devices')}
      </FormLabel>
      <RadioGroup
        aria-labelledby={id}
        value={draft.scope}
        onChange={(event) => {
          change({ scope: SCOPES.find((scope) => scope === event.target.value) ?? draft.scope }, 'match.devices');
        }}
      >
        {SCOPES.map((scope) => (
          <FormControlLabel key={scope} value={scope} control={<Radio />} label={t(`dialog.scopes.${scope}`)} />
        ))}
      </RadioGroup>
      {draft.scope === 'list' ? (
        <ChipsField
          label={t('dialog.deviceIds')}
          values={draft.deviceIds}
          onChange={(deviceIds) => {
            change({ deviceIds }, 'match.devices');
          }}
          error={error}
          hint={t('dialog.deviceIdsHint')}
          required
        />
      ) : null}
      {draft.scope === 'gateway' ? (
        <TextField
          label={t('dialog.gatewayId')}
          value={draft.gatewayId}
          onChange={(event) => {
            change({ gatewayId: event.target.value }, 'match.devices');
          }}
          error={error !== undefined}
          helperText={error ?? t('dialog.gatewayIdHint')}
          autoComplete="off"
          required
          fullWidth
          margin="normal"
        />
      ) : null}
      {draft.scope === 'all' && error ? <FormHelperText sx={{ mx: 0 }}>{error}</FormHelperText> : null}
    </FormControl>
  );
}
