// New API key: a name, a role and an expiry (30 days, 90 days, a year, or a
// day chosen in a date input). Checked here with the server's rules first;
// the server's refusals show under their fields, any other as the form's
// alert, as the New user dialog does.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useId, useState, type SyntheticEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { isCancelled } from '../../../lib/api.ts';
import { API_KEY_DEFAULT_EXPIRY, API_KEY_NAME_MAX_CHARS } from '../../../lib/constants.ts';
import { ROLES, isRole, type Role } from '../../../lib/permissions.ts';
import { charCount } from '../../../lib/validation.ts';
import { useCreateApiKeyMutation, type CreatedApiKey } from '../api/api-keys-api.ts';
import { expiryOf, type ExpiryChoice } from '../api/expiry.ts';
import { useApiKeyErrors, type NewApiKeyErrors, type NewApiKeyField } from '../hooks/use-api-key-errors.ts';
import { ExpiryField } from './expiry-field.tsx';

/** The least trusted role: an admin raises it on purpose. */
const DEFAULT_ROLE: Role = 'viewer';

interface Props {
  open: boolean;
  onClose: () => void;
  onCreated: (created: CreatedApiKey) => void;
}

export function NewApiKeyDialog({ open, onClose, onCreated }: Props) {
  const { t } = useTranslation('apiKeys');
  const titleId = useId();
  // The form is mounted at each opening, so it starts empty.
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t('create.title')}</DialogTitle>
      <NewApiKeyForm titleId={titleId} onClose={onClose} onCreated={onCreated} />
    </Dialog>
  );
}

function NewApiKeyForm({ titleId, onClose, onCreated }: { titleId: string } & Omit<Props, 'open'>) {
  const { t } = useTranslation('apiKeys');
  const { t: common } = useTranslation();
  const refusals = useApiKeyErrors();
  const [create, { isLoading }] = useCreateApiKeyMutation();
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>(DEFAULT_ROLE);
  const [expiry, setExpiry] = useState<ExpiryChoice>(API_KEY_DEFAULT_EXPIRY);
  const [customDate, setCustomDate] = useState('');
  const [errors, setErrors] = useState<NewApiKeyErrors>({});
  const [problem, setProblem] = useState<string | null>(null);

  const forget = (field: NewApiKeyField) => {
    setErrors((before) => Object.fromEntries(Object.entries(before).filter(([named]) => named !== field)));
  };

  const submit = async (event: SyntheticEvent) => {
    event.preventDefault();
    setProblem(null);
    const trimmed = name.trim();
    const expiresAt = expiryOf(expiry, customDate, new Date());
    const rules = refusals.rules();
    const found: NewApiKeyErrors = {
      ...(trimmed === '' || charCount(trimmed) > API_KEY_NAME_MAX_CHARS ? { name: rules.name } : {}),
      ...(expiresAt === null ? { expiresAt: rules.expiresAt } : {}),
    };
    setErrors(found);
    if (expiresAt === null || Object.keys(found).length > 0) return;
    try {
      onCreated(await create({ name: trimmed, role, expiresAt: expiresAt.toISOString() }).unwrap());
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
