// Beside the title of the Gateways and Water Meters lists: Export CSV, for
// any role, of the devices the list's start date selects, in the columns an
// import reads back; then the CSV import, which another feature adds
// (features/device-import) without the device features importing it: the
// app provides what to render (app/providers.tsx), as device-sections.tsx.
import { createContext, use, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useDevicesCsvMutation } from '../lib/exports-api.ts';
import type { DeviceCsvKind } from '../lib/types.ts';
import { CsvButton } from './csv-download-button.tsx';
import { startOfNextDay } from './start-date-picker.tsx';

export interface DeviceImportProps {
  kind: DeviceCsvKind;
  /** Devices were registered: the list shows them. */
  onImported: () => void;
}

export type RenderDeviceImport = (props: DeviceImportProps) => ReactNode;

export const DeviceImportContext = createContext<RenderDeviceImport | null>(null);

interface Props extends DeviceImportProps {
  /** The list's start date (`YYYY-MM-DD`), or null for none. */
  startDay: string | null;
}

export function DeviceCsvActions({ kind, startDay, onImported }: Props) {
  const { t } = useTranslation();
  const [download, { isLoading }] = useDevicesCsvMutation();
  const renderImport = use(DeviceImportContext);
  const start = startDay ? startOfNextDay(startDay) : undefined;
  return (
    <>
      <CsvButton label={t('export.list')} download={() => download({ kind, start }).unwrap()} loading={isLoading} />
      {renderImport?.({ kind, onImported })}
    </>
  );
}
