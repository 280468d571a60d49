// "Download CSV" of a consumption series, the range a chart shows
// (docs/analytics.md, Exports): saved under the server's file name; a
// failure says so in a notice.
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';

import { useConsumptionCsvMutation } from '../lib/exports-api.ts';
import type { SeriesArg } from '../lib/rollups-api.ts';
import { useNotice } from './notice.tsx';

export function CsvDownloadButton({ series }: { series: SeriesArg }) {
  const { t } = useTranslation();
  const notify = useNotice();
  const [download, { isLoading }] = useConsumptionCsvMutation();
  const onClick = () => {
    download(series).unwrap().catch(() => { notify(t('export.failed'), 'error'); });
  };
  return (
    <Button size="small" startIcon={<FileDownloadIcon />} loading={isLoading} loadingPosition="start" onClick={onClick}>
      {isLoading ? t('export.downloading') : t('export.csv')}
    </Button>
  );
}
