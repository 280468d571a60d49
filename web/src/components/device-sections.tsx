// Sections another feature adds to a device's detail page (the device's
// alarms), without the device features importing it: the app provides what
// to render (app/providers.tsx), the detail pages render it here.
import { createContext, use, type ReactNode } from 'react';

import type { DeviceKind } from './device-link.tsx';

export type RenderDeviceSections = (deviceId: string, kind: DeviceKind) => ReactNode;

export const DeviceSectionsContext = createContext<RenderDeviceSections | null>(null);

export function DeviceSections({ deviceId, kind }: { deviceId: string; kind: DeviceKind }) {
  const render = use(DeviceSectionsContext);
  return render ? render(deviceId, kind) : null;
}
