// Sections another feature adds to a device's detail page (the device's
// alarms, a meter's consumption chart with its alarms marked), without the device features importing it: the app provides what
// to render (app/providers.tsx), the detail pages render it here.
import { createContext, use, type ReactNode } from 'react';

import type { DeviceKind } from './device-link.tsx';

/** Where on the page: beside the activity, or with the consumption. */
export type SectionPlace = 'side' | 'consumption';

export type RenderDeviceSections = (deviceId: string, kind: DeviceKind, place: SectionPlace) => ReactNode;

export const DeviceSectionsContext = createContext<RenderDeviceSections | null>(null);

interface Props {
  deviceId: string;
  kind: DeviceKind;
  place: SectionPlace;
}

export function DeviceSections({ deviceId, kind, place }: Props) {
  const render = use(DeviceSectionsContext);
  return render ? render(deviceId, kind, place) : null;
}
