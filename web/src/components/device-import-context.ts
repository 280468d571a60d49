// The CSV import beside the title of the Gateways and Water Meters lists is
// another feature's (features/device-import): the app provides what to render
// (app/providers.tsx) and device-csv-actions.tsx renders it, so that neither
// the device features nor the app's entry import it.
import { createContext, type ReactNode } from 'react';

import type { DeviceCsvKind } from '../lib/types.ts';

export interface DeviceImportProps {
  kind: DeviceCsvKind;
  /** Devices were registered: the list shows them. */
  onImported: () => void;
}

export type RenderDeviceImport = (props: DeviceImportProps) => ReactNode;

export const DeviceImportContext = createContext<RenderDeviceImport | null>(null);
