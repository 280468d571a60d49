// New API key: a name, a role and an expiry (30 days, 90 days, a year, or a
// day chosen in a date input). Checked here with the server's rules first;
// the server's refusals show under their fields, any other as the form's
// alert, as the New user dialog does.
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { RoleField } from '../../../components/role-field.tsx';
import { API_KEY_DEFAULT_EXPIRY, API_KEY_NAME_MAX_CHARS } from '../../../lib/constants.ts';
import { useFormErrors } from '../../../lib/use-form-errors.ts';
import { DEFAULT_NEW_ROLE, type Role } from '../../../lib/permissions.ts';
import { charCount } from '../../../lib/validation.ts';
import { useCreateApiKeyMutation, type CreatedApiKey } from '../api/api-keys-api.ts';
import { expiryOf, type ExpiryChoice } from '../api/expiry.ts';
import { useApiKeyErrors } from '../hooks/use-api-key-errors.ts';
import { ExpiryField } from './expiry-field.tsx';

interface Props {
  open: boolean;
  onClose: () => void;
  onCreated: (created: CreatedApiKey) => void;
}

export function NewApiKeyDialog({ open, onClose, onCreated }: Props) {
  const { t } = useTranslation('apiKeys');
  return (
    <FormDialog open={open} title={t('create.title')} onClose={onClose}>
      {(titleId) => <NewApiKeyForm titleId={titleId} onClose={onClose} onCreated={onCreated} />}
    </FormDialog>
  );
}

function NewApiKeyForm({ titleId, onClose, onCreated }: { titleId: string } & Omit<Props, 'open'>) {
  const { t } = useTranslation('apiKeys');
  const refusals = useApiKeyErrors();
  const { errors, problem, forget, check, send } = useFormErrors(refusals);
  const [create, { isLoading }] = useCreateApiKeyMutation();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>(DEFAULT_NEW_ROLE);
  const [expiry, setExpiry] = useState<ExpiryChoice>(API_KEY_DEFAULT_EXPIRY);
  const [customDate, setCustomDate] = useState('');

  const submit = async () => {
    const trimmed = name.trim();
    const expiresAt = expiryOf(expiry, customDate, new Date());
    const rules = refusals.rules();
    const clean = check({
      ...(trimmed === '' || charCount(trimmed) > API_KEY_NAME_MAX_CHARS ? { name: rules.name } : {}),
      ...(expiresAt === null ? { expiresAt: rules.expiresAt } : {}),
    });
    if (expiresAt === null || !clean) return;
    await send(() => create({ name: trimmed, role, expiresAt: expiresAt.toISOString() }).unwrap(), onCreated);
  };

  return (
    <DialogForm
      titleId={titleId}
      submitLabel={t('create.submit')}
      busy={isLoading}
      problem={problem}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <TextField
        label={t('create.name')}
        value={name}
        onChange={(event) => {
          setName(event.target.value);
          forget('name');
        }}
        error={errors.name !== undefined}
        helperText={errors.name ?? t('create.nameHint')}
        autoComplete="off"
        autoFocus
        required
        fullWidth
        margin="normal"
      />
      <RoleField
        label={t('create.role')}
        value={role}
        error={errors.role}
        onChange={(chosen) => {
          setRole(chosen);
          forget('role');
        }}
      />
      <ExpiryField
        choice={expiry}
        customDate={customDate}
        error={errors.expiresAt}
        onChoice={(choice) => {
          setExpiry(choice);
          forget('expiresAt');
        }}
        onCustomDate={(date) => {
          setCustomDate(date);
          forget('expiresAt');
        }}
      />
    </DialogForm>
  );
}
