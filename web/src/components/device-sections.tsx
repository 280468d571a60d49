// Sections another feature adds to a device's detail page (the device's
// alarms, a meter's consumption chart with its alarms marked, a gateway's
// MQTT credentials), without the device features importing it: the app
// provides what to render (app/providers.tsx), the detail pages render it here.
import { createContext, use, type ReactNode } from 'react';

import type { DeviceKind } from './device-link.tsx';

/** Where on the page: beside the activity, with the consumption, or below the rest, across the page. */
export type SectionPlace = 'side' | 'consumption' | 'below';

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
