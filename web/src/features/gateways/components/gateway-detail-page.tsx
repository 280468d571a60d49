// Gateway detail (spec §2): the route parameter is an id or a serial number,
// with or without GTW-. Details and edit on the left, activity on the right,
// with the gateway's daily traffic above it; below both, what other features
// add across the page (the MQTT credentials, for operators and admins).
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';

import { DeviceSections } from '../../../components/device-sections.tsx';
import { GATEWAY_PREFIX } from '../../../lib/constants.ts';
import { deviceLookup, idOf } from '../../../lib/format.ts';
import { useLoggedError } from '../../../lib/use-logged-error.ts';
import { useGatewayDetailQuery } from '../api/gateways-api.ts';
import { BleActivitySection } from './ble-activity-section.tsx';
import { GatewayActivitySection } from './gateway-activity-section.tsx';
import { GatewayHeader } from './gateway-header.tsx';
import { GatewayPanel } from './gateway-panel.tsx';
import { PeripheralsSection } from './peripherals-section.tsx';
import { TrafficChart } from './traffic-chart.tsx';

export default function GatewayDetailPage() {
  const { t } = useTranslation('gateways');
  const { t: tc } = useTranslation();
  const { gatewayId = '' } = useParams();
  const lookup = useMemo(() => deviceLookup(gatewayId, GATEWAY_PREFIX), [gatewayId]);
  const { data: gateway, error } = useGatewayDetailQuery(lookup);
  useLoggedError(error, 'gateway');

  if (!gateway) {
    return (
      <Box>
        <GatewayHeader gateway={null} fallbackName={gatewayId} />
        {error ? (
          <Typography color="error" role="alert">
            {t('detail.loadFailed')}
          </Typography>
        ) : (
          <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
            <CircularProgress aria-label={tc('loading')} />
          </Box>
        )}
      </Box>
    );
  }

  const id = idOf(gateway._id);
  return (
    <Box sx={{ minWidth: 0 }}>
      <GatewayHeader gateway={gateway} fallbackName={gatewayId} />
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 2fr) minmax(0, 3fr)' },
          alignItems: 'start',
        }}
      >
        <Box sx={{ display: 'grid', gap: 3, minWidth: 0 }}>
          <GatewayPanel gateway={gateway} />
          <PeripheralsSection gatewayId={id} />
        </Box>
        <Box sx={{ display: 'grid', gap: 3, minWidth: 0 }}>
          <DeviceSections deviceId={id} kind="gateway" place="side" />
          <TrafficChart gatewayId={id} />
          <BleActivitySection gatewayId={id} />
          <GatewayActivitySection gatewayId={id} />
        </Box>
      </Box>
      <Box sx={{ display: 'grid', gap: 3, minWidth: 0, mt: 3, '&:empty': { display: 'none' } }}>
        <DeviceSections deviceId={id} kind="gateway" place="below" />
      </Box>
    </Box>
  );
}
