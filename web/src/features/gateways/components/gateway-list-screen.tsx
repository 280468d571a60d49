// A gateway list (spec §2): 'Gateways (n)' or 'Lost Gateways (n)', a start-date
// picker, cards (gray-dotted when lost) and Load More. Beside the title of
// every gateway, the CSV export and import.
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

import { DeviceCsvActions } from '../../../components/device-csv-actions.tsx';
import { DeviceListPage } from '../../../components/paged-list/device-list-page.tsx';
import { idOf } from '../../../lib/format.ts';
import type { GatewayListKind } from '../api/gateways-api.ts';
import { useGatewayList } from '../hooks/use-gateway-list.ts';
import { GatewayCard } from './gateway-card.tsx';

export function GatewayListScreen({ kind }: { kind: GatewayListKind }) {
  const { t } = useTranslation('gateways');
  const { list, total, startDay, setStartDay } = useGatewayList(kind);
  const texts = kind === 'lost' ? 'lost' : 'list';
  return (
    <DeviceListPage
      title={total === undefined ? t(`${texts}.titleNoCount`) : t(`${texts}.title`, { total })}
      list={list}
      total={total}
      startDay={startDay}
      onStartDayChange={setStartDay}
      keyOf={(gateway) => idOf(gateway._id)}
      renderCard={(gateway) => <GatewayCard gateway={gateway} lost={kind === 'lost'} />}
      empty={<Typography color="text.secondary">{t(`${texts}.empty`)}</Typography>}
      titleAction={kind === 'all' ? <DeviceCsvActions kind="gateways" startDay={startDay} onImported={list.reload} /> : null}
    />
  );
}
