// New user: a username, a role, and a one-time password made by the server
// (the default) or a password set here. Checked here with the server's
// rules first; the server's refusals show under their fields, a taken
// username as the form's alert.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { useId, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { isCancelled } from '../../../lib/api.ts';
import { MAX_USERNAME_CHARS, MIN_PASSWORD_CHARS } from '../../../lib/constants.ts';
import { ROLES, isRole, type Role } from '../../../lib/permissions.ts';
import { charCount, isValidUsername } from '../../../lib/validation.ts';
import { useCreateUserMutation, type CreatedUser } from '../api/users-api.ts';
import { useUserErrors, type NewUserErrors, type NewUserField } from '../hooks/use-user-errors.ts';

type PasswordChoice = 'generate' | 'set';

/** The least trusted role: an admin raises it on purpose. */
const DEFAULT_ROLE: Role = 'viewer';

interface Props {
  open: boolean;
  onClose: () => void;
  onCreated: (created: CreatedUser) => void;
}

export function NewUserDialog({ open, onClose, onCreated }: Props) {
  const { t } = useTranslation('users');
  const titleId = useId();
  // The form is mounted at each opening, so it starts empty.
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('create.title')}</DialogTitle>
      <NewUserForm titleId={titleId} onClose={onClose} onCreated={onCreated} />
    </Dialog>
  );
}

function NewUserForm({ titleId, onClose, onCreated }: { titleId: string; onClose: () => void; onCreated: (created: CreatedUser) => void }) {
  const { t } = useTranslation('users');
  const { t: common } = useTranslation();
  const id = useId();
  const refusals = useUserErrors();
  const [create, { isLoading }] = useCreateUserMutation();
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<Role>(DEFAULT_ROLE);
  const [choice, setChoice] = useState<PasswordChoice>('generate');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<NewUserErrors>({});
  const [problem, setProblem] = useState<string | null>(null);

  const forget = (field: NewUserField) => {
    setErrors((before) => Object.fromEntries(Object.entries(before).filter(([name]) => name !== field)));
  };

  const check = (name: string): NewUserErrors => {
    const found: NewUserErrors = {};
    if (!isValidUsername(name)) found.username = t('fields.username', { max: MAX_USERNAME_CHARS });
    if (choice === 'set' && charCount(password) < MIN_PASSWORD_CHARS) {
      found.password = t('fields.passwordTooShort', { min: MIN_PASSWORD_CHARS });
    }
    return found;
  };

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setProblem(null);
    const name = username.trim();
    const found = check(name);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      onCreated(await create({ username: name, role, ...(choice === 'set' ? { password } : {}) }).unwrap());
    } catch (error) {
      if (isCancelled(error)) return;
      const named = refusals.fields(error);
      if (Object.keys(named).length > 0) setErrors(named);
      else setProblem(refusals.problem(error));
    }
  };

  return (
    <Box component="form" noValidate aria-labelledby={titleId} onSubmit={(event) => void submit(event)}>
      <DialogContent sx={{ pt: 0 }}>
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
        <TextField
          select
          label={t('create.role')}
          value={role}
          onChange={(event) => {
            if (isRole(event.target.value)) setRole(event.target.value);
            forget('role');
          }}
          error={errors.role !== undefined}
          helperText={errors.role}
          fullWidth
          margin="normal"
        >
          {ROLES.map((option) => (
            <MenuItem key={option} value={option}>
              {common(`roles.${option}`)}
            </MenuItem>
          ))}
        </TextField>
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
        {problem ? (
          <Alert severity="error" sx={{ mt: 1 }}>
            {problem}
          </Alert>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={isLoading}>
          {common('actions.cancel')}
        </Button>
        <Button type="submit" variant="contained" loading={isLoading}>
          {t('create.submit')}
        </Button>
      </DialogActions>
    </Box>
  );
}
