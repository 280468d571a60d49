// The forced password change (/change-password): while the password is
// one-time, every other route leads here and the server answers nothing
// else (docs/administration.md). Outside the shell, like the sign-in: the
// shell's reads would all be refused. Once changed, the overview.
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { useAppSelector } from '../../../lib/hooks.ts';
import { selectMustChangePassword, selectUsername } from '../../../lib/session.ts';
import { useLogout } from '../hooks/use-logout.ts';
import { PasswordChangeForm } from './password-change-form.tsx';

const CARD_WIDTH_PX = 420;

export default function ChangePasswordPage() {
  const { t } = useTranslation('auth');
  const id = useId();
  const navigate = useNavigate();
  const logout = useLogout();
  const forced = useAppSelector(selectMustChangePassword);
  const username = useAppSelector(selectUsername);
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Card sx={{ width: CARD_WIDTH_PX, maxWidth: '100%' }}>
        <CardContent>
          <Typography id={`${id}-title`} variant="h5" component="h1" gutterBottom>
            {t('passwordChange.forcedTitle')}
          </Typography>
          {forced ? (
            <Alert severity="info" sx={{ mb: 1 }}>
              {t('passwordChange.forcedText')}
            </Alert>
          ) : null}
          {username ? (
            <Typography variant="body2" color="text.secondary">
              {t('passwordChange.signedInAs', { username })}
            </Typography>
          ) : null}
          <PasswordChangeForm
            labelledBy={`${id}-title`}
            autoFocus
            onChanged={() => navigate('/', { replace: true })}
          />
          <Button onClick={() => void logout()} sx={{ mt: 1 }}>
            {t('passwordChange.logout')}
          </Button>
        </CardContent>
      </Card>
    </Box>
  );
}
