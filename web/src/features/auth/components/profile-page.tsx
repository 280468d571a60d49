// Profile (/profile): who is signed in, with which role, their theme, and
// the password change.
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { FieldList } from '../../../components/field-list.tsx';
import { useNotice } from '../../../components/notice.tsx';
import { useAppSelector } from '../../../lib/hooks.ts';
import { isRole } from '../../../lib/permissions.ts';
import { selectRole, selectUsername } from '../../../lib/session.ts';
import { useMeQuery } from '../api/auth-api.ts';
import { PasswordChangeForm } from './password-change-form.tsx';
import { ThemeField } from './theme-field.tsx';

const FORM_MAX_WIDTH_PX = 600;

export default function ProfilePage() {
  const { t } = useTranslation('auth');
  const { t: common } = useTranslation();
  const id = useId();
  const notify = useNotice();
  const { data: me } = useMeQuery(undefined);
  const sessionUsername = useAppSelector(selectUsername);
  const username = me?.username ?? sessionUsername;
  // The role the dashboard acts on: the access token's, which follows every refresh.
  const role = useAppSelector(selectRole);
  const roleText = isRole(role) ? common(`roles.${role}`) : (role ?? common('fallback.notAvailable'));
  return (
    <Paper component="section" variant="outlined" aria-labelledby={`${id}-title`} sx={{ p: { xs: 2, sm: 3 }, width: FORM_MAX_WIDTH_PX, maxWidth: '100%', mx: 'auto' }}>
      <Typography id={`${id}-title`} variant="h5" component="h1" gutterBottom>
        {t('profile.title')}
      </Typography>
      <FieldList
        fields={[
          { label: t('profile.username'), value: username ?? common('fallback.notAvailable') },
          { label: t('profile.role'), value: roleText },
        ]}
      />
      <Typography variant="h6" component="h2" sx={{ mt: 3 }}>
        {t('profile.appearance')}
      </Typography>
      <ThemeField />
      <Typography id={`${id}-password`} variant="h6" component="h2" sx={{ mt: 3 }}>
        {t('passwordChange.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('passwordChange.text')}
      </Typography>
      <PasswordChangeForm
        labelledBy={`${id}-password`}
        onChanged={() => {
          notify(t('passwordChange.changed'), 'success');
        }}
      />
    </Paper>
  );
}
