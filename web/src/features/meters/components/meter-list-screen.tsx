// The water meters, lost and down lists (spec §2): title with the total,
// start-date picker, meter cards, Load More. Beside the title of every
// meter, the CSV export and import after the page's own control.
import type { ReactNode } from 'react';

import { DeviceCsvActions } from '../../../components/device-csv-actions.tsx';
import { DeviceListPage } from '../../../components/paged-list/device-list-page.tsx';
import type { DotColour } from '../../../components/status-dot.tsx';
import { idOf } from '../../../lib/format.ts';
import type { WaterMeter } from '../../../lib/types.ts';
import type { MeterListKind } from '../api/meter-tags.ts';
import { useListTitle } from '../hooks/use-list-title.ts';
import { useMeterList } from '../hooks/use-meter-list.ts';
import { MeterCard } from './meter-card.tsx';

interface Props {
  kind: Exclude<MeterListKind, 'critical'>;
  dot: (meter: WaterMeter) => DotColour;
  empty?: ReactNode;
  /** A control beside the title. */
  titleAction?: ReactNode;
}

/** Lost and down meters: red if critical, otherwise gray. */
export const lostDot = (meter: WaterMeter): DotColour => (meter.criticalState ? 'red' : 'gray');

export function MeterListScreen({ kind, dot, empty, titleAction }: Props) {
  const { list, total, startDay, setStartDay } = useMeterList(kind);
  const title = useListTitle(kind, total);
  return (
    <DeviceListPage
      title={title}
      list={list}
      total={total}
      startDay={startDay}
      onStartDayChange={setStartDay}
      keyOf={(meter) => idOf(meter._id)}
      renderCard={(meter) => <MeterCard meter={meter} dot={dot(meter)} />}
      {...(empty ? { empty } : {})}
      titleAction={
        <>
          {titleAction}
          {kind === 'all' ? <DeviceCsvActions kind="meters" startDay={startDay} onImported={list.reload} /> : null}
        </>
      }
    />
  );
}
