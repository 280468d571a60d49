// One uniqueness-check trigger per checked field (spec §5). A lazy query
// trigger drops its previous request when called again, so the fields must
// not share one: checks of different fields run side by side on submit.
import { useLazyFieldExistsQuery, type CheckedField } from '../../../lib/fieldcheck-api.ts';

type Trigger = ReturnType<typeof useLazyFieldExistsQuery>[0];

export function useFieldChecks(): Readonly<Record<CheckedField, Trigger>> {
  const [serialNumber] = useLazyFieldExistsQuery();
  const [imei] = useLazyFieldExistsQuery();
  const [phoneNumber] = useLazyFieldExistsQuery();
  const [bleAddress] = useLazyFieldExistsQuery();
  const [macAddress] = useLazyFieldExistsQuery();
  return { serialNumber, imei, phoneNumber, bleAddress, macAddress };
}
