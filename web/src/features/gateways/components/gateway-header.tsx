// The detail page's head: Back, then the gateway's name with its status dot.
import ArrowBackIcon from '../../../components/icons/arrow-back';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { gatewayDot, StatusDot } from '../../../components/status-dot.tsx';
import { useGoBack } from '../../../components/use-go-back.ts';
import { gatewayName } from '../../../lib/format.ts';
import type { Gateway } from '../../../lib/types.ts';

interface Props {
  gateway: Gateway | null;
  /** The heading while the gateway is not loaded: the route parameter. */
  fallbackName: string;
}

export function GatewayHeader({ gateway, fallbackName }: Props) {
  const { t } = useTranslation();
  const goBack = useGoBack('/gateways');
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 2 }}>
      <Button startIcon={<ArrowBackIcon />} onClick={goBack}>
        {t('actions.back')}
      </Button>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
        {gateway ? (
          <StatusDot colour={gatewayDot(gateway)} label={t(gateway.isOnline ? 'status.online' : 'status.offline')} />
        ) : null}
        <Typography variant="h5" component="h1" sx={{ overflowWrap: 'anywhere' }}>
          {gateway ? gatewayName(gateway) : fallbackName}
        </Typography>
      </Box>
    </Box>
  );
}
