// Register Gateway (spec §2, §5): on success, the new gateway's page.
import { useTranslation } from 'react-i18next';

import {
  parseAddress,
  parseGps,
  parseImei,
  parsePhoneNumber,
  parseSerialNumber,
} from '../../../lib/validation.ts';
import { useRegisterGatewayMutation } from '../api/registration-api.ts';
import type { FieldSpec } from '../hooks/registration-fields.ts';
import { useRegistrationForm } from '../hooks/use-registration-form.ts';
import { RegistrationForm } from './registration-form.tsx';

const FIELDS: readonly FieldSpec[] = [
  { name: 'serialNumber', parse: parseSerialNumber, check: 'serialNumber' },
  { name: 'imei', parse: parseImei, check: 'imei' },
  { name: 'phoneNumber', parse: parsePhoneNumber, check: 'phoneNumber' },
  { name: 'bleAddress', parse: parseAddress, check: 'bleAddress' },
  { name: 'macAddress', parse: parseAddress, check: 'macAddress' },
  { name: 'gpsCoordinates', parse: parseGps, optional: true },
];

export default function GatewayRegistrationPage() {
  const { t } = useTranslation('registration');
  const [registerGateway] = useRegisterGatewayMutation();
  const form = useRegistrationForm({
    fields: FIELDS,
    register: (body) => registerGateway(body).unwrap(),
    detailPath: (id) => `/gateways/${encodeURIComponent(id)}`,
  });
  return (
    <RegistrationForm
      title={t('gateway.title')}
      fields={FIELDS}
      form={form}
      failureText={{ forbidden: t('gateway.forbidden'), failed: t('gateway.failed') }}
    />
  );
}
