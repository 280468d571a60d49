// Sign-in (spec §2, Login): the username is trimmed; any failure but a
// cancellation reads 'Invalid credentials' (spec §8).
import Visibility from '../../../components/icons/visibility';
import VisibilityOff from '../../../components/icons/visibility-off';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';

import { isCancelled } from '../../../lib/api.ts';
import { LOGIN_CARD_WIDTH_PX } from '../../../lib/constants.ts';
import { useAppDispatch, useAppSelector } from '../../../lib/hooks.ts';
import { selectToken, signedIn } from '../../../lib/session.ts';
import { useLoginMutation } from '../api/auth-api.ts';

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const token = useAppSelector(selectToken);
  const [login, { isLoading }] = useLoginMutation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [failed, setFailed] = useState(false);

  if (token) return <Navigate to="/" replace />;

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFailed(false);
    const name = username.trim();
    try {
      const response = await login({ username: name, password }).unwrap();
      dispatch(signedIn({ token: response.accessToken, role: response.role, userId: response.userId, username: name }));
      await navigate('/', { replace: true });
    } catch (error) {
      if (!isCancelled(error)) setFailed(true);
    }
  };

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2 }}>
      <Card sx={{ width: LOGIN_CARD_WIDTH_PX, maxWidth: '100%' }}>
        <CardContent>
          <Typography variant="h5" component="h1" gutterBottom>
            {t('title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" gutterBottom>
            {t('subtitle')}
          </Typography>
          <Box component="form" noValidate onSubmit={(e) => void submit(e)}>
            <TextField
              label={t('username')}
              value={username}
              onChange={(e) => {
                setUsername(e.target.value);
              }}
              autoComplete="username"
              autoFocus
              fullWidth
              margin="normal"
            />
            <TextField
              label={t('password')}
              type={showPassword ? 'text' : 'password'}
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
              }}
              autoComplete="current-password"
              fullWidth
              margin="normal"
              slotProps={{
                input: {
                  endAdornment: (
                    <InputAdornment position="end">
                      <IconButton
                        aria-label={showPassword ? t('hidePassword') : t('showPassword')}
                        onClick={() => {
                          setShowPassword((shown) => !shown);
                        }}
                        edge="end"
                      >
                        {showPassword ? <VisibilityOff /> : <Visibility />}
                      </IconButton>
                    </InputAdornment>
                  ),
                },
              }}
            />
            {failed ? (
              <Alert severity="error" sx={{ mt: 1 }}>
                {t('invalidCredentials')}
              </Alert>
            ) : null}
            <Button type="submit" variant="contained" fullWidth sx={{ mt: 2 }} loading={isLoading}>
              {t('login')}
            </Button>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
