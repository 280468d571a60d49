// "Download CSV" of a consumption series, the range a chart shows
// (docs/analytics.md, Exports): saved under the server's file name; a
// failure says so in a notice. `CsvButton` is the same button for any other
// download (the audit trail's, a device list's), under its own label if need be.
import FileDownloadIcon from './icons/file-download';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';

import { useConsumptionCsvMutation } from '../lib/exports-api.ts';
import type { SeriesArg } from '../lib/rollups-api.ts';
import { useNotice } from './notice.tsx';

interface CsvButtonProps {
  /** Fetches and saves the file; a rejection is a failed download. */
  download: () => Promise<unknown>;
  loading: boolean;
  disabled?: boolean;
  /** Instead of "Download CSV". */
  label?: string;
}

export function CsvButton({ download, loading, disabled = false, label }: CsvButtonProps) {
  const { t } = useTranslation();
  const notify = useNotice();
  const onClick = () => {
    download().catch(() => { notify(t('export.failed'), 'error'); });
  };
  return (
    <Button
      size="small"
      startIcon={<FileDownloadIcon />}
      loading={loading}
      loadingPosition="start"
      disabled={disabled}
      onClick={onClick}
    >
      {loading ? t('export.downloading') : (label ?? t('export.csv'))}
    </Button>
  );
}

export function CsvDownloadButton({ series }: { series: SeriesArg }) {
  const [download, { isLoading }] = useConsumptionCsvMutation();
  return <CsvButton download={() => download(series).unwrap()} loading={isLoading} />;
}
