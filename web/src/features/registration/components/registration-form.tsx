// The frame of both registration pages (spec §2): a heading, the fields with
// their errors, a Register button that shows progress, and the general form
// error below. A role that may not register gets a notice instead of the form.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { useCan } from '../../../lib/permissions.ts';
import type { FieldSpec } from '../hooks/registration-fields.ts';
import type { FormFailure, RegistrationForm as Form } from '../hooks/use-registration-form.ts';
import { RegistrationField } from './registration-field.tsx';

const FORM_MAX_WIDTH_PX = 600;

interface Props {
  title: string;
  fields: readonly FieldSpec[];
  form: Form;
  failureText: Readonly<Record<FormFailure, string>>;
}

export function RegistrationForm({ title, fields, form, failureText }: Props) {
  const { t } = useTranslation('registration');
  const id = useId();
  const titleId = `${id}-title`;
  const canRegister = useCan('changeDevices');
  return (
    <Box component="section" aria-labelledby={titleId} sx={{ display: 'flex', justifyContent: 'center' }}>
      <Paper variant="outlined" sx={{ width: FORM_MAX_WIDTH_PX, maxWidth: '100%', p: { xs: 2, sm: 3 } }}>
        <Typography id={titleId} variant="h5" component="h1" gutterBottom>
          {title}
        </Typography>
        {canRegister ? null : <Alert severity="info">{t('notAllowed')}</Alert>}
        {canRegister ? (<Box
          component="form"
          noValidate
          aria-labelledby={titleId}
          onSubmit={(event) => {
            event.preventDefault();
            void form.submit();
          }}
        >
          {fields.map((spec) => (
            <RegistrationField
              key={spec.name}
              id={`${id}-${spec.name}`}
              label={t(`fields.${spec.name}`)}
              value={form.values[spec.name] ?? ''}
              error={form.errors[spec.name]}
              hint={spec.name === 'gpsCoordinates' ? t('gpsHint') : undefined}
              optional={spec.optional}
              onChange={(value) => {
                form.change(spec.name, value);
              }}
              onBlur={() => void form.blur(spec)}
            />
          ))}
          <Button type="submit" variant="contained" fullWidth sx={{ mt: 2 }} loading={form.submitting}>
            {t('register')}
          </Button>
          {form.failure ? (
            <Alert severity="error" sx={{ mt: 2 }}>
              {failureText[form.failure]}
            </Alert>
          ) : null}
        </Box>) : null}
      </Paper>
    </Box>
  );
}
