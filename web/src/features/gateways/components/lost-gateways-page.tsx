// Lost gateways (spec §2): 'Lost Gateways (n)', start date, gray-dotted cards, Load More.
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { DeviceListPage } from '../../../components/paged-list/device-list-page.tsx';
import { idOf } from '../../../lib/format.ts';
import { useGatewayCountQuery } from '../api/gateways-api.ts';
import { useGatewayPages } from '../hooks/use-gateway-pages.ts';
import { useLoggedError } from '../hooks/use-logged-error.ts';
import { GatewayCard } from './gateway-card.tsx';

export default function LostGatewaysPage() {
  const { t } = useTranslation('gateways');
  const [startDay, setStartDay] = useState<string | null>(null);
  const list = useGatewayPages('lost', startDay);
  const { data: total, error } = useGatewayCountQuery('lost');
  useLoggedError(error, 'lost gateway count');
  return (
    <DeviceListPage
      title={total === undefined ? t('lost.titleNoCount') : t('lost.title', { total })}
      list={list}
      total={total}
      startDay={startDay}
      onStartDayChange={setStartDay}
      keyOf={(gateway) => idOf(gateway._id)}
      renderCard={(gateway) => <GatewayCard gateway={gateway} lost />}
      empty={<Typography color="text.secondary">{t('lost.empty')}</Typography>}
    />
  );
}
