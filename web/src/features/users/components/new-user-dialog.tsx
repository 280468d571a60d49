// New user: a username, a role, and a one-time password made by the server
// (the default) or a password set here. Checked here with the server's
// rules first; the server's refusals show under their fields, a taken
// username as the form's alert.
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { DialogForm, FormDialog } from '../../../components/form-dialog.tsx';
import { RoleField } from '../../../components/role-field.tsx';
import { MAX_USERNAME_CHARS, MIN_PASSWORD_CHARS } from '../../../lib/constants.ts';
import { useFormErrors } from '../../../lib/use-form-errors.ts';
import { DEFAULT_NEW_ROLE, type Role } from '../../../lib/permissions.ts';
import { charCount, isValidUsername } from '../../../lib/validation.ts';
import { useCreateUserMutation, type CreatedUser } from '../api/users-api.ts';
import { useUserErrors, type NewUserErrors } from '../hooks/use-user-errors.ts';

type PasswordChoice = 'generate' | 'set';

interface Props {
  open: boolean;
  onClose: () => void;
  onCreated: (created: CreatedUser) => void;
}

export function NewUserDialog({ open, onClose, onCreated }: Props) {
  const { t } = useTranslation('users');
  return (
    <FormDialog open={open} title={t('create.title')} onClose={onClose}>
      {(titleId) => <NewUserForm titleId={titleId} onClose={onClose} onCreated={onCreated} />}
    </FormDialog>
  );
}

function NewUserForm({ titleId, onClose, onCreated }: { titleId: string } & Omit<Props, 'open'>) {
  const { t } = useTranslation('users');
  const id = useId();
  const { errors, problem, forget, check, send } = useFormErrors(useUserErrors());
  const [create, { isLoading }] = useCreateUserMutation();
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<Role>(DEFAULT_NEW_ROLE);
  const [choice, setChoice] = useState<PasswordChoice>('generate');
  const [password, setPassword] = useState('');

  const findings = (name: string): NewUserErrors => {
    const found: NewUserErrors = {};
    if (!isValidUsername(name)) found.username = t('fields.username', { max: MAX_USERNAME_CHARS });
    if (choice === 'set' && charCount(password) < MIN_PASSWORD_CHARS) {
      found.password = t('fields.passwordTooShort', { min: MIN_PASSWORD_CHARS });
    }
    return found;
  };

  const submit = async () => {
    const name = username.trim();
    if (!check(findings(name))) return;
    await send(() => create({ username: name, role, ...(choice === 'set' ? { password } : {}) }).unwrap(), onCreated);
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
        label={t('create.username')}
        value={username}
        onChange={(event) => {
          setUsername(event.target.value);
          forget('username');
        }}
        error={errors.username !== undefined}
        helperText={errors.username}
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
      <FormControl component="fieldset" margin="normal" fullWidth>
        <FormLabel component="legend" id={`${id}-choice`}>
          {t('create.passwordChoice')}
        </FormLabel>
        <RadioGroup
          aria-labelledby={`${id}-choice`}
          value={choice}
          onChange={(event) => {
            setChoice(event.target.value === 'set' ? 'set' : 'generate');
            forget('password');
          }}
        >
          <FormControlLabel value="generate" control={<Radio />} label={t('create.generate')} />
          <FormControlLabel value="set" control={<Radio />} label={t('create.set')} />
        </RadioGroup>
        {choice === 'generate' ? <FormHelperText sx={{ mx: 0 }}>{t('create.generateHint')}</FormHelperText> : null}
      </FormControl>
      {choice === 'set' ? (
        <TextField
          type="password"
          label={t('create.password')}
          value={password}
          onChange={(event) => {
            setPassword(event.target.value);
            forget('password');
          }}
          error={errors.password !== undefined}
          helperText={errors.password}
          autoComplete="new-password"
          required
          fullWidth
          margin="normal"
        />
      ) : null}
    </DialogForm>
  );
}
