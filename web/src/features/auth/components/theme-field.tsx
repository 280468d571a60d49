// The theme choice of the profile page: System (the device's light or dark
// setting, followed live), Light or Dark, applied at once and saved for the
// signed-in user, as the top bar's selector does.
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { isThemeChoice, THEME_CHOICES } from '../../../lib/theme-choice.ts';
import { useThemeChoice } from '../hooks/use-theme-choice.ts';

export function ThemeField() {
  const { t } = useTranslation('auth');
  const { t: common } = useTranslation();
  const id = useId();
  const { choice, choose } = useThemeChoice();
  return (
    <FormControl component="fieldset" margin="normal">
      <FormLabel component="legend" id={`${id}-label`}>
        {common('theme.label')}
      </FormLabel>
      <RadioGroup
        row
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-hint`}
        value={choice}
        onChange={(event) => {
          if (isThemeChoice(event.target.value)) void choose(event.target.value);
        }}
      >
        {THEME_CHOICES.map((option) => (
          <FormControlLabel key={option} value={option} control={<Radio />} label={common(`theme.${option}`)} />
        ))}
      </RadioGroup>
      <FormHelperText id={`${id}-hint`} sx={{ mx: 0 }}>
        {t('profile.themeHint')}
      </FormHelperText>
    </FormControl>
  );
}
