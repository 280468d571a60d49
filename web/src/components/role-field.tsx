// A role chosen among the server's roles, each named in the user's language
// (a new user's, a new API key's).
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';

import { ROLES, isRole, type Role } from '../lib/permissions.ts';

interface Props {
  label: string;
  value: Role;
  error: string | undefined;
  onChange: (role: Role) => void;
}

export function RoleField({ label, value, error, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      label={label}
      value={value}
      onChange={(event) => {
        if (isRole(event.target.value)) onChange(event.target.value);
      }}
      error={error !== undefined}
      helperText={error}
      fullWidth
      margin="normal"
    >
      {ROLES.map((option) => (
        <MenuItem key={option} value={option}>
          {t(`roles.${option}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
