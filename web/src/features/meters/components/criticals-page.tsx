// Critical Water Meters (spec §2): every card red, with its raised alerts;
// the compact layout starts below 800 px.
import { DeviceListPage } from '../../../components/paged-list/device-list-page.tsx';
import { BREAKPOINT_CRITICAL_LIST_MOBILE_PX } from '../../../lib/constants.ts';
import { idOf } from '../../../lib/format.ts';
import { useListTitle } from '../hooks/use-list-title.ts';
import { useMeterList } from '../hooks/use-meter-list.ts';
import { CriticalCard } from './critical-card.tsx';

export default function CriticalsPage() {
  const { list, total, startDay, setStartDay } = useMeterList('critical');
  const title = useListTitle('critical', total);
  return (
    <DeviceListPage
      title={title}
      list={list}
      total={total}
      startDay={startDay}
      onStartDayChange={setStartDay}
      keyOf={(meter) => idOf(meter._id)}
      renderCard={(meter) => <CriticalCard meter={meter} />}
      mobileBelowPx={BREAKPOINT_CRITICAL_LIST_MOBILE_PX}
    />
  );
}
