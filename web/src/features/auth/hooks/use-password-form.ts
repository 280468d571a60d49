// The password change (docs/administration.md): checked here first (the new
// password twice, at least MIN_PASSWORD_CHARS), then by the server, whose
// refusals show under their fields. A change is answered as a sign-in: the
// new access token is stored as the login stores it.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { errorFields, isCancelled } from '../../../lib/api.ts';
import { MIN_PASSWORD_CHARS } from '../../../lib/constants.ts';
import { useAppDispatch, useAppSelector } from '../../../lib/hooks.ts';
import { selectUsername, signedIn } from '../../../lib/session.ts';
import { charCount } from '../../../lib/validation.ts';
import { authApi, useChangePasswordMutation } from '../api/auth-api.ts';

export const PASSWORD_FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;
export type PasswordField = (typeof PASSWORD_FIELDS)[number];
export type PasswordValues = Record<PasswordField, string>;
export type PasswordErrors = Partial<Record<PasswordField, string>>;

const EMPTY: PasswordValues = { currentPassword: '', newPassword: '', confirmPassword: '' };

export interface PasswordForm {
  values: PasswordValues;
  errors: PasswordErrors;
  /** The change failed for a reason no field explains. */
  failed: boolean;
  submitting: boolean;
  change: (field: PasswordField, value: string) => void;
  submit: () => Promise<void>;
}

export function usePasswordForm(onChanged: () => void | Promise<void>): PasswordForm {
  const { t } = useTranslation('auth');
  const dispatch = useAppDispatch();
  const username = useAppSelector(selectUsername);
  const { data: me } = authApi.endpoints.me.useQueryState(undefined);
  const [changePassword, { isLoading }] = useChangePasswordMutation();
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [failed, setFailed] = useState(false);

  const check = (): PasswordErrors => {
    const found: PasswordErrors = {};
    if (!values.currentPassword) found.currentPassword = t('passwordChange.currentRequired');
    if (charCount(values.newPassword) < MIN_PASSWORD_CHARS) {
      found.newPassword = t('passwordChange.tooShort', { min: MIN_PASSWORD_CHARS });
    }
    if (values.confirmPassword !== values.newPassword) found.confirmPassword = t('passwordChange.mismatch');
    return found;
  };

  const refused = (error: unknown): PasswordErrors => {
    const fields = errorFields(error);
    const found: PasswordErrors = {};
    if (fields.currentPassword !== undefined) found.currentPassword = t('passwordChange.wrongCurrent');
    if (fields.newPassword !== undefined) found.newPassword = t('passwordChange.tooShort', { min: MIN_PASSWORD_CHARS });
    // The server's own rule of every password: not over its size.
    else if (fields.password !== undefined) found.newPassword = t('passwordChange.tooLong');
    return found;
  };

  const submit = async () => {
    setFailed(false);
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    let answer;
    try {
      answer = await changePassword({ currentPassword: values.currentPassword, newPassword: values.newPassword }).unwrap();
    } catch (error) {
      if (isCancelled(error)) return;
      const server = refused(error);
      if (Object.keys(server).length > 0) setErrors(server);
      else setFailed(true);
      return;
    }
    dispatch(
      signedIn({ token: answer.accessToken, role: answer.role, userId: answer.userId, username: username ?? me?.username ?? '' }),
    );
    setValues(EMPTY);
    await onChanged();
  };

  const change = (field: PasswordField, value: string) => {
    setValues((before) => ({ ...before, [field]: value }));
    setErrors((before) => Object.fromEntries(Object.entries(before).filter(([name]) => name !== field)));
  };

  return { values, errors, failed, submitting: isLoading, change, submit };
}
