// One registration field: its error, or its hint, shows under it and is
// announced with the input (aria-invalid, aria-describedby).
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

import type { FieldError } from '../hooks/registration-fields.ts';

interface Props {
  id: string;
  label: string;
  value: string;
  error: FieldError | null | undefined;
  hint?: string | undefined;
  optional?: boolean | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
}

function useErrorText() {
  const { t } = useTranslation('registration');
  return (error: FieldError, field: string): string => {
    switch (error.kind) {
      case 'format':
        return t(`validation.${error.message}`, { ns: 'common' });
      case 'inUse':
        return t('inUse', { field });
      case 'checkFailed':
        return t('checkFailed', { field });
      case 'server':
        return error.text;
    }
  };
}

export function RegistrationField({ id, label, value, error, hint, optional = false, onChange, onBlur }: Props) {
  const errorText = useErrorText();
  const helperText = error ? errorText(error, label) : hint;
  return (
    <TextField
      id={id}
      label={label}
      value={value}
      error={Boolean(error)}
      helperText={helperText}
      onChange={(event) => {
        onChange(event.target.value);
      }}
      onBlur={onBlur}
      fullWidth
      margin="normal"
      autoComplete="off"
      slotProps={{ htmlInput: { 'aria-required': !optional, spellCheck: false } }}
    />
  );
}
