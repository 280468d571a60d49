// Beside the title of the Gateways and Water Meters lists: Export CSV, for
// any role, of the devices the list's start date selects, in the columns an
// import reads back; then the CSV import, which another feature adds
// (device-import-context.ts).
import { use } from 'react';
import { useTranslation } from 'react-i18next';

import { useDevicesCsvMutation } from '../lib/exports-api.ts';
import { CsvButton } from './csv-download-button.tsx';
import { DeviceImportContext, type DeviceImportProps } from './device-import-context.ts';
import { startOfNextDay } from './start-date-picker.tsx';

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
