// The gateway edit panel's rules (spec §5, Gateway edit): the phone number is
// 10 digits (on blur and on save) and unique when changed; GPS is normalized
// to six decimals on blur and sent only when it parses and differs. Only the
// changed fields are sent; with no change the edit closes without a request.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useNotice } from '../../../components/notice.tsx';
import { isCancelled, isForbidden } from '../../../lib/api.ts';
import { useLazyFieldExistsQuery } from '../../../lib/fieldcheck-api.ts';
import { formatGps, idOf } from '../../../lib/format.ts';
import type { Gateway, GpsValue } from '../../../lib/types.ts';
import { parseEditPhoneNumber, parseGps, type Gps } from '../../../lib/validation.ts';
import { useGatewayUpdateMutation, type GatewayChanges } from '../api/gateways-api.ts';

function sameGps(next: Gps, current: GpsValue): boolean {
  if (current === null) return false;
  const parsed = parseGps(current);
  return parsed.ok && parsed.value[0] === next[0] && parsed.value[1] === next[1];
}

export function useGatewayEdit(gateway: Gateway, onDone: () => void) {
  const { t } = useTranslation('gateways');
  const { t: tc } = useTranslation();
  const notify = useNotice();
  const [checkField] = useLazyFieldExistsQuery();
  const [update] = useGatewayUpdateMutation();
  const [phone, setPhoneText] = useState(gateway.phoneNumber);
  const [gps, setGpsText] = useState(formatGps(gateway.gpsCoordinates) ?? '');
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [gpsError, setGpsError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const setPhone = (value: string) => {
    setPhoneText(value);
    setPhoneError(null);
  };
  const setGps = (value: string) => {
    setGpsText(value);
    setGpsError(null);
  };

  const checkPhone = () => {
    const parsed = parseEditPhoneNumber(phone.trim());
    if (!parsed.ok) setPhoneError(tc(`validation.${parsed.message}`));
    return parsed;
  };
  /** The typed GPS: null when empty (nothing to send), else parsed. */
  const checkGps = () => {
    if (gps.trim() === '') return null;
    const parsed = parseGps(gps);
    if (parsed.ok) setGpsText(formatGps(parsed.value) ?? gps);
    else setGpsError(tc(`validation.${parsed.message}`));
    return parsed;
  };

  /** False when the phone number is taken or the check fails (then it says so). */
  const phoneIsFree = async (value: string) => {
    try {
      const taken = await checkField({ field: 'phoneNumber', value }).unwrap();
      if (taken) setPhoneError(t('edit.phoneInUse'));
      return !taken;
    } catch (error) {
      if (!isCancelled(error)) setPhoneError(t('edit.phoneCheckFailed'));
      return false;
    }
  };

  const send = async (changes: GatewayChanges) => {
    try {
      await update({ id: idOf(gateway._id), changes }).unwrap();
      notify(t('edit.saved'), 'success');
      onDone();
    } catch (error) {
      if (!isCancelled(error)) notify(isForbidden(error) ? t('edit.saveDenied') : t('edit.saveFailed'), 'error');
    }
  };

  const save = async () => {
    const phoneParsed = checkPhone();
    const gpsParsed = checkGps();
    if (!phoneParsed.ok || (gpsParsed && !gpsParsed.ok)) return;
    const changes: GatewayChanges = {};
    if (phoneParsed.value !== gateway.phoneNumber) changes.phoneNumber = phoneParsed.value;
    if (gpsParsed?.ok && !sameGps(gpsParsed.value, gateway.gpsCoordinates)) changes.gpsCoordinates = gpsParsed.value;
    if (changes.phoneNumber === undefined && changes.gpsCoordinates === undefined) {
      onDone();
      return;
    }
    setSaving(true);
    try {
      if (changes.phoneNumber === undefined || (await phoneIsFree(changes.phoneNumber))) await send(changes);
    } finally {
      setSaving(false);
    }
  };

  return {
    phone,
    gps,
    phoneError,
    gpsError,
    saving,
    setPhone,
    setGps,
    blurPhone: () => void checkPhone(),
    blurGps: () => void checkGps(),
    save,
  };
}
