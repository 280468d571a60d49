// The password change form of the profile and of the forced change: the
// current password, the new one twice. Each error shows under its field.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { MIN_PASSWORD_CHARS } from '../../../lib/constants.ts';
import { PASSWORD_FIELDS, usePasswordForm, type PasswordField } from '../hooks/use-password-form.ts';

const AUTOCOMPLETE: Record<PasswordField, string> = {
  currentPassword: 'current-password',
  newPassword: 'new-password',
  confirmPassword: 'new-password',
};

interface Props {
  /** Labels the form (a heading's id). */
  labelledBy: string;
  /** After the change is stored. */
  onChanged: () => void | Promise<void>;
  autoFocus?: boolean;
}

export function PasswordChangeForm({ labelledBy, onChanged, autoFocus = false }: Props) {
  const { t } = useTranslation('auth');
  const id = useId();
  const form = usePasswordForm(onChanged);
  return (
    <Box
      component="form"
      noValidate
      aria-labelledby={labelledBy}
      onSubmit={(event) => {
        event.preventDefault();
        void form.submit();
      }}
    >
      {PASSWORD_FIELDS.map((field, index) => (
        <TextField
          key={field}
          id={`${id}-${field}`}
          name={field}
          type="password"
          label={t(`passwordChange.fields.${field}`)}
          value={form.values[field]}
          onChange={(event) => {
            form.change(field, event.target.value);
          }}
          error={form.errors[field] !== undefined}
          helperText={form.errors[field] ?? (field === 'newPassword' ? t('passwordChange.hint', { min: MIN_PASSWORD_CHARS }) : undefined)}
          autoComplete={AUTOCOMPLETE[field]}
          autoFocus={autoFocus && index === 0}
          required
          fullWidth
          margin="normal"
        />
      ))}
      {form.failed ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          {t('passwordChange.failed')}
        </Alert>
      ) : null}
      <Button type="submit" variant="contained" sx={{ mt: 2 }} loading={form.submitting}>
        {t('passwordChange.submit')}
      </Button>
    </Box>
  );
}
