// The gateways list (spec §2): 'Gateways (n)', a start-date picker, cards and Load More.
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { DeviceListPage } from '../../../components/paged-list/device-list-page.tsx';
import { idOf } from '../../../lib/format.ts';
import { useGatewayCountQuery } from '../api/gateways-api.ts';
import { useGatewayPages } from '../hooks/use-gateway-pages.ts';
import { useLoggedError } from '../hooks/use-logged-error.ts';
import { GatewayCard } from './gateway-card.tsx';

export default function GatewaysPage() {
  const { t } = useTranslation('gateways');
  const [startDay, setStartDay] = useState<string | null>(null);
  const list = useGatewayPages('all', startDay);
  const { data: total, error } = useGatewayCountQuery('all');
  useLoggedError(error, 'gateway count');
  return (
    <DeviceListPage
      title={total === undefined ? t('list.titleNoCount') : t('list.title', { total })}
      list={list}
      total={total}
      startDay={startDay}
      onStartDayChange={setStartDay}
      keyOf={(gateway) => idOf(gateway._id)}
      renderCard={(gateway) => <GatewayCard gateway={gateway} />}
      empty={<Typography color="text.secondary">{t('list.empty')}</Typography>}
    />
  );
}
