// A webhook's secret, write-only: the stored one is never shown. A new rule
// needs one; an edited rule that has one says so and offers to replace it.
// Generate fills 32 random URL-safe characters and shows them, to be copied
// to the receiver before saving.
import Visibility from '../../../components/icons/visibility';
import VisibilityOff from '../../../components/icons/visibility-off';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { generateSecret } from '../api/webhook-secret.ts';

interface Props {
  value: string;
  /** The rule has a secret stored: a new one is optional. */
  secretSet: boolean;
  error: string | undefined;
  onChange: (secret: string) => void;
}

export function SecretField({ value, secretSet, error, onChange }: Props) {
  const { t } = useTranslation('alarmRules');
  const [shown, setShown] = useState(false);
  return (
    <>
      {secretSet ? (
        <Typography variant="body2" sx={{ mt: 2 }}>
          {t('dialog.secretSet')}
        </Typography>
      ) : null}
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
        <TextField
          type={shown ? 'text' : 'password'}
          label={secretSet ? t('dialog.replaceSecret') : t('dialog.secret')}
          value={value}
          onChange={(event) => {
            onChange(event.target.value);
          }}
          error={error !== undefined}
          helperText={error ?? (secretSet ? t('dialog.replaceSecretHint') : t('dialog.secretHint'))}
          required={!secretSet}
          autoComplete="new-password"
          fullWidth
          margin="normal"
          slotProps={{
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <IconButton
                    edge="end"
                    aria-label={shown ? t('dialog.hideSecret') : t('dialog.showSecret')}
                    onClick={() => {
                      setShown(!shown);
                    }}
                  >
                    {shown ? <VisibilityOff /> : <Visibility />}
                  </IconButton>
                </InputAdornment>
              ),
            },
          }}
        />
        <Button
          variant="outlined"
          onClick={() => {
            onChange(generateSecret());
            setShown(true);
          }}
          sx={{ mt: 3.25, flexShrink: 0 }}
        >
          {t('dialog.generate')}
        </Button>
      </Box>
    </>
  );
}
