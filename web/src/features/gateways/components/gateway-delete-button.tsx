// Delete for a gateway never seen (spec §2), with the gateway's texts.
import { useTranslation } from 'react-i18next';

import { DeleteDeviceButton } from '../../../components/delete-device-button.tsx';
import { gatewayName, idOf } from '../../../lib/format.ts';
import type { Gateway } from '../../../lib/types.ts';
import { useGatewayDeleteMutation } from '../api/gateways-api.ts';

export function GatewayDeleteButton({ gateway }: { gateway: Gateway }) {
  const { t } = useTranslation('gateways');
  const mutation = useGatewayDeleteMutation();
  return (
    <DeleteDeviceButton
      id={idOf(gateway._id)}
      mutation={mutation}
      fallback="/gateways"
      texts={{
        title: t('detail.deleteTitle'),
        text: t('detail.deleteText', { name: gatewayName(gateway) }),
        denied: t('detail.deleteDenied'),
        failed: t('detail.deleteFailed'),
      }}
    />
  );
}
