// A new key's expiry: 30 days, 90 days or a year from now, or a custom day
// in a date input that offers tomorrow to API_KEY_MAX_DAYS ahead.
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { customDateRange, EXPIRY_CHOICES, type ExpiryChoice } from '../api/expiry.ts';

interface Props {
  choice: ExpiryChoice;
  customDate: string;
  error: string | undefined;
  onChoice: (choice: ExpiryChoice) => void;
  onCustomDate: (date: string) => void;
}

export function ExpiryField({ choice, customDate, error, onChoice, onCustomDate }: Props) {
  const { t } = useTranslation('apiKeys');
  const id = useId();
  const [range] = useState(() => customDateRange(new Date()));
  const custom = choice === 'custom';
  return (
    <FormControl component="fieldset" margin="normal" fullWidth error={error !== undefined && !custom}>
      <FormLabel component="legend" id={`${id}-label`}>
        {t('create.expiry')}
      </FormLabel>
      <RadioGroup
        aria-labelledby={`${id}-label`}
        value={choice}
        onChange={(event) => {
          onChoice(EXPIRY_CHOICES.find((option) => option === event.target.value) ?? choice);
        }}
      >
        {EXPIRY_CHOICES.map((option) => (
          <FormControlLabel key={option} value={option} control={<Radio />} label={t(`create.expiryChoices.${option}`)} />
        ))}
      </RadioGroup>
      {custom ? (
        <TextField
          type="date"
          label={t('create.expiryDate')}
          value={customDate}
          onChange={(event) => {
            onCustomDate(event.target.value);
          }}
          error={error !== undefined}
          helperText={error}
          required
          size="small"
          slotProps={{ inputLabel: { shrink: true }, htmlInput: range }}
          sx={{ mt: 1 }}
        />
      ) : error ? (
        <FormHelperText sx={{ mx: 0 }}>{error}</FormHelperText>
      ) : null}
    </FormControl>
  );
}
