// Register Water Meter (spec §2, §5): on success, the new meter's page.
import { useTranslation } from 'react-i18next';

import { parseGps, parseMeterBleAddress, parseMeterSerialNumber } from '../../../lib/validation.ts';
import { useRegisterMeterMutation } from '../api/registration-api.ts';
import type { FieldSpec } from '../hooks/registration-fields.ts';
import { useRegistrationForm } from '../hooks/use-registration-form.ts';
import { RegistrationForm } from './registration-form.tsx';

const FIELDS: readonly FieldSpec[] = [
  { name: 'serialNumber', parse: parseMeterSerialNumber, check: 'serialNumber' },
  { name: 'bleAddress', parse: parseMeterBleAddress, check: 'bleAddress' },
  { name: 'gpsCoordinates', parse: parseGps, optional: true },
];

export default function MeterRegistrationPage() {
  const { t } = useTranslation('registration');
  const [registerMeter] = useRegisterMeterMutation();
  const form = useRegistrationForm({
    fields: FIELDS,
    register: (body) => registerMeter(body).unwrap(),
    detailPath: (id) => `/water-meters/${encodeURIComponent(id)}`,
  });
  return (
    <RegistrationForm
      title={t('meter.title')}
      fields={FIELDS}
      form={form}
      failureText={{ forbidden: t('meter.forbidden'), failed: t('meter.failed') }}
    />
  );
}
