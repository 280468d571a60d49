// Delete for a meter never seen (spec §2), with the meter's texts.
import { useTranslation } from 'react-i18next';

import { DeleteDeviceButton } from '../../../components/delete-device-button.tsx';
import { idOf, meterName } from '../../../lib/format.ts';
import type { WaterMeter } from '../../../lib/types.ts';
import { useMeterDeleteMutation } from '../api/meter-detail-api.ts';

export function MeterDeleteButton({ meter }: { meter: WaterMeter }) {
  const { t } = useTranslation('meters');
  const mutation = useMeterDeleteMutation();
  return (
    <DeleteDeviceButton
      id={idOf(meter._id)}
      mutation={mutation}
      fallback="/water-meters"
      texts={{
        title: t('detail.deleteTitle'),
        text: t('detail.deleteText', { name: meterName(meter) }),
        denied: t('detail.deleteDenied'),
        failed: t('detail.deleteFailed'),
      }}
    />
  );
}
